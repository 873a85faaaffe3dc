#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "host/cuda/cuda_api.h"

namespace btforge::cuda {

// A failed driver call. what() is
//   "<what was being attempted>: <CUDA_ERROR_NAME> (<driver's description>)"
// e.g. "allocating 512.0 MiB on the device: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
class CudaError : public std::runtime_error {
public:
    CudaError(CUresult code, const std::string& message) : std::runtime_error(message), code_(code) {}
    CUresult code() const noexcept { return code_; }

private:
    CUresult code_;
};

// The message of a CudaError. `name` and `description` are what
// cuGetErrorName / cuGetErrorString returned, null when the driver does not
// know the code (then the number is shown).
std::string format_cuda_error(std::string_view attempt, CUresult code, const char* name, const char* description);

}  // namespace btforge::cuda
