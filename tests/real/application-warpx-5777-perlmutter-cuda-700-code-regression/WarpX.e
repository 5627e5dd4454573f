amrex::Abort::19::CUDA error 700 in file /global/homes/b/bzdjordj/src/warpx/build_pm_gpu_2/_deps/fetchedamrex-src/Src/Base/AMReX_GpuDevice.cpp line 692: an illegal memory access was encountered !!!
SIGABRT
