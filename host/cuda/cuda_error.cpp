#include "host/cuda/cuda_error.h"

namespace btforge::cuda {

std::string format_cuda_error(std::string_view attempt, CUresult code, const char* name, const char* description) {
    std::string message(attempt);
    message += ": ";
    message += name != nullptr ? std::string(name) : "CUDA error " + std::to_string(code);
    message += " (";
    message += description != nullptr ? description : "the driver has no description for this code";
    message += ")";
    return message;
}

}  // namespace btforge::cuda
