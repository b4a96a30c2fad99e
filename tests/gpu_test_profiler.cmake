# gpu_test_profiler needs two CUDA kernels of its own (a copy and a read-only L2 flush) whose
# DRAM traffic is known exactly; the naming rule builds only the .cpp, so add the .cu here.
if(TARGET gpu_test_profiler)
  target_sources(gpu_test_profiler PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/profiler_test_kernels.cu)
endif()
