#pragma once

#include <cstddef>

namespace btforge::cuda {

// Note [Declaring the driver API ourselves]
// btforge builds and runs on machines without the CUDA toolkit and links no
// CUDA library: libcuda.so.1 is dlopen'ed at run time (CudaDriver). So the
// few driver types, constants and signatures it uses are declared here
// rather than taken from <cuda.h>. Every numeric value below is the one of
// the CUDA driver API documentation and of cuda.h (CUDA 13.0); they are ABI,
// fixed since their introduction. Enums are passed as int, which is how the
// C ABI passes them. The functions are resolved by their versioned symbol
// names (what cuda.h's #defines map them to), listed in cuda_driver.cpp.

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;

// CUresult values that btforge reacts to (cudaError_enum).
inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
inline constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
inline constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
inline constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
inline constexpr CUresult CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221;
inline constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
inline constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;

// CUdevice_attribute values.
inline constexpr int CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13;  // kHz
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33;
inline constexpr int CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34;
inline constexpr int CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

// CUjit_option values (the options of cuModuleLoadDataEx).
using CUjit_option = int;
inline constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
inline constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
inline constexpr CUjit_option CU_JIT_LOG_VERBOSE = 12;

// Flags.
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0x0;
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;

// The entry points btforge calls, as the driver exports them.
struct DriverApi {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int* version);
    CUresult (*cuGetErrorName)(CUresult error, const char** name);
    CUresult (*cuGetErrorString)(CUresult error, const char** description);
    CUresult (*cuDeviceGetCount)(int* count);
    CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
    CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device);
    CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
    CUresult (*cuDeviceTotalMem)(std::size_t* bytes, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
    CUresult (*cuCtxSetCurrent)(CUcontext context);
    CUresult (*cuCtxSynchronize)();
    CUresult (*cuMemGetInfo)(std::size_t* free_bytes, std::size_t* total_bytes);
    CUresult (*cuMemAlloc)(CUdeviceptr* pointer, std::size_t bytes);
    CUresult (*cuMemFree)(CUdeviceptr pointer);
    CUresult (*cuMemHostAlloc)(void** pointer, std::size_t bytes, unsigned flags);
    CUresult (*cuMemFreeHost)(void* pointer);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr destination, const void* source, std::size_t bytes);
    CUresult (*cuMemcpyDtoH)(void* destination, CUdeviceptr source, std::size_t bytes);
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr destination, const void* source, std::size_t bytes, CUstream stream);
    CUresult (*cuMemcpyDtoHAsync)(void* destination, CUdeviceptr source, std::size_t bytes, CUstream stream);
    CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags);
    CUresult (*cuStreamDestroy)(CUstream stream);
    CUresult (*cuStreamSynchronize)(CUstream stream);
    CUresult (*cuEventCreate)(CUevent* event, unsigned flags);
    CUresult (*cuEventDestroy)(CUevent event);
    CUresult (*cuEventRecord)(CUevent event, CUstream stream);
    CUresult (*cuEventSynchronize)(CUevent event);
    CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start, CUevent end);
    CUresult (*cuModuleLoadDataEx)(CUmodule* module, const void* image, unsigned n_options, CUjit_option* options,
                                   void** option_values);
    CUresult (*cuModuleUnload)(CUmodule module);
    CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name);
    CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                               unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                               CUstream stream, void** parameters, void** extra);
    CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int* blocks, CUfunction function, int block_size,
                                                            std::size_t dynamic_shared_bytes);
};

}  // namespace btforge::cuda
