python3 -m paddle.distributed.launch --ips="10.36.10.41,10.36.10.40" --log_dir=./output/test_log --gpus '0,1,2,3'  tools/train.py -c configs/det/ch_ppocr_v2.0/ch_det_res18_db_v2.0.yml
