# walltime : maximum wall clock time (hh:mm:ss)
#PBS -l walltime=24:00:00,mem=96gb
#
# join stdout and stderr
#PBS -j oe
#
# spool output immediately
#PBS -k oe
#
# specify GPU queue
#PBS -q gpu
#
#  nodes: number of nodes
#  ppn: number of processes per node
#  gpus: number of gpus per node
#  GPUs are in 'exclusive' mode by default, but 'shared' keyword sets them to shared mode.
#  docker: indicator that I want to execute on a node that can run docker. (optional for other ppl)
#  gtxtitan: indicator that I want to execute on nodes that have this particular type of GPU (optional for other ppl)
#PBS -l nodes=1:ppn=1:gpus=1:docker:gtxtitan
