export NCCL_IB_DISABLE=1
export NCCL_DEBUG=INFO

# train
python examples/tts/fastpitch_finetune.py \
  --config-path=conf \
  --config-name=fastpitch_align_v1.05 \
  exp_manager.name=fastpitch \
  +exp_manager.exp_dir=/experiments \
  +exp_manager.version=20220421-0818 \
  exp_manager.resume_if_exists=true \
  exp_manager.resume_ignore_no_checkpoint=true \
  +exp_manager.checkpoint_callback_params.save_best_model=true \
  train_dataset=/data/manifests/manifest_v4_train.json \
  validation_datasets=/data/manifests/manifest_v4_valid.json \
  sup_data_path=/data/sup/v4 \
