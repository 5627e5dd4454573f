#!/bin/bash
cd /retinanet/.
export NNI_PLATFORM=local
export NNI_SYS_DIR=/root/nni/experiments/I9RfkzsX/trials/Yut1X
export NNI_TRIAL_JOB_ID=Yut1X
export NNI_OUTPUT_DIR=/root/nni/experiments/I9RfkzsX/trials/Yut1X
export NNI_TRIAL_SEQ_ID=1
export MULTI_PHASE=false
export CUDA_VISIBLE_DEVICES=
eval retinanet train retinanet_rn50fpn.pth --backbone ResNet50FPN --images /coco/images/train2017/ --annotations /coco/annotations/instances_train2017.json --val-images /coco/images/val2017/ --val-annotations /coco/annotations/instances_val2017.json --logdir /project/output/logs/ 2>/root/nni/experiments/I9RfkzsX/trials/Yut1X/stderr
echo $? `date +%s000` >/root/nni/experiments/I9RfkzsX/trials/Yut1X/.nni/state

