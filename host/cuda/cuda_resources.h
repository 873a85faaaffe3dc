#pragma once

#include <cstddef>
#include <string_view>

#include "host/cuda/cuda_driver.h"

namespace btforge::cuda {

// Owners of driver resources. Each releases its resource in its destructor,
// ignoring errors there (a destructor cannot report them, and a failure that
// matters has already been reported by the call that caused it). They hold a
// reference to the driver, which must outlive them, and must be destroyed
// while their context is still alive: declare the PrimaryContext first.

// Retains the device's primary context and makes it current on this thread
// (the context the CUDA runtime and other libraries share, so btforge
// coexists with them), releasing it on destruction.
class PrimaryContext {
public:
    PrimaryContext(const CudaDriver& driver, CUdevice device);
    PrimaryContext(const PrimaryContext&) = delete;
    PrimaryContext& operator=(const PrimaryContext&) = delete;
    ~PrimaryContext();
    CUcontext get() const noexcept { return context_; }

private:
    const CudaDriver* driver_;
    CUdevice device_;
    CUcontext context_ = nullptr;
};

// Device memory. Zero bytes allocates nothing (the driver rejects a size of
// 0) and get() is then 0.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    // `purpose` completes "allocating <size> on the device for ..." in errors.
    DeviceBuffer(const CudaDriver& driver, std::size_t bytes, std::string_view purpose);
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    ~DeviceBuffer();
    CUdeviceptr get() const noexcept { return pointer_; }
    std::size_t size() const noexcept { return bytes_; }

private:
    void reset() noexcept;
    const CudaDriver* driver_ = nullptr;
    CUdeviceptr pointer_ = 0;
    std::size_t bytes_ = 0;
};

// Page-locked host memory (cuMemHostAlloc): what asynchronous copies need
// to overlap with kernels.
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    PinnedBuffer(const CudaDriver& driver, std::size_t bytes, std::string_view purpose);
    PinnedBuffer(PinnedBuffer&& other) noexcept;
    PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
    ~PinnedBuffer();
    void* data() const noexcept { return data_; }
    template <typename T>
    T* as() const noexcept {
        return static_cast<T*>(data_);
    }
    std::size_t size() const noexcept { return bytes_; }

private:
    void reset() noexcept;
    const CudaDriver* driver_ = nullptr;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
};

// A non-blocking stream. The destructor waits for the work queued on it,
// so buffers it reads or writes may be freed right after it.
class Stream {
public:
    explicit Stream(const CudaDriver& driver);
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream();
    CUstream get() const noexcept { return stream_; }
    void synchronize(std::string_view attempt) const;

private:
    const CudaDriver* driver_;
    CUstream stream_ = nullptr;
};

// A timing event.
class Event {
public:
    explicit Event(const CudaDriver& driver);
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event();
    CUevent get() const noexcept { return event_; }
    void record(const Stream& stream) const;

private:
    const CudaDriver* driver_;
    CUevent event_ = nullptr;
};

// Milliseconds between two completed events.
double elapsed_milliseconds(const CudaDriver& driver, const Event& start, const Event& stop);

}  // namespace btforge::cuda
