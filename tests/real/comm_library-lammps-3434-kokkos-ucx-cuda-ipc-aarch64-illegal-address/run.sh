mpirun --allow-run-as-root -np 2 -x UCX_TLS=sm,cuda_copy,cuda_ipc lmp_kokkos_cuda_mpi -k on g 2 -sf kk -pk kokkos cuda/aware on neigh full comm device binsize 2.8  -in in.lj.txt
