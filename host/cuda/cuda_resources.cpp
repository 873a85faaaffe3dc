#include "host/cuda/cuda_resources.h"

#include <string>
#include <utility>

#include "host/cuda/byte_count.h"

namespace btforge::cuda {

PrimaryContext::PrimaryContext(const CudaDriver& driver, CUdevice device) : driver_(&driver), device_(device) {
    std::string which = "device " + std::to_string(device);
    driver.check(driver.api().cuDevicePrimaryCtxRetain(&context_, device),
                 "retaining the primary context of " + which);
    CUresult current = driver.api().cuCtxSetCurrent(context_);
    if (current != CUDA_SUCCESS) {
        driver.api().cuDevicePrimaryCtxRelease(device);
        driver.check(current, "making the context of " + which + " current");
    }
}

PrimaryContext::~PrimaryContext() {
    driver_->api().cuCtxSetCurrent(nullptr);
    driver_->api().cuDevicePrimaryCtxRelease(device_);
}

DeviceBuffer::DeviceBuffer(const CudaDriver& driver, std::size_t bytes, std::string_view purpose)
    : driver_(&driver), bytes_(bytes) {
    if (bytes == 0) return;
    driver.check(driver.api().cuMemAlloc(&pointer_, bytes),
                 "allocating " + format_bytes(bytes) + " on the device for " + std::string(purpose));
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : driver_(other.driver_), pointer_(std::exchange(other.pointer_, 0)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
        reset();
        driver_ = other.driver_;
        pointer_ = std::exchange(other.pointer_, 0);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

DeviceBuffer::~DeviceBuffer() { reset(); }

void DeviceBuffer::reset() noexcept {
    if (pointer_ != 0) driver_->api().cuMemFree(pointer_);
    pointer_ = 0;
    bytes_ = 0;
}

PinnedBuffer::PinnedBuffer(const CudaDriver& driver, std::size_t bytes, std::string_view purpose)
    : driver_(&driver), bytes_(bytes) {
    if (bytes == 0) return;
    driver.check(driver.api().cuMemHostAlloc(&data_, bytes, CU_MEMHOSTALLOC_PORTABLE),
                 "allocating " + format_bytes(bytes) + " of pinned host memory for " + std::string(purpose));
}

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept
    : driver_(other.driver_), data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
        reset();
        driver_ = other.driver_;
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

PinnedBuffer::~PinnedBuffer() { reset(); }

void PinnedBuffer::reset() noexcept {
    if (data_ != nullptr) driver_->api().cuMemFreeHost(data_);
    data_ = nullptr;
    bytes_ = 0;
}

Stream::Stream(const CudaDriver& driver) : driver_(&driver) {
    driver.check(driver.api().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "creating a stream");
}

Stream::~Stream() {
    driver_->api().cuStreamSynchronize(stream_);
    driver_->api().cuStreamDestroy(stream_);
}

void Stream::synchronize(std::string_view attempt) const {
    driver_->check(driver_->api().cuStreamSynchronize(stream_), attempt);
}

Event::Event(const CudaDriver& driver) : driver_(&driver) {
    driver.check(driver.api().cuEventCreate(&event_, CU_EVENT_DEFAULT), "creating a timing event");
}

Event::~Event() { driver_->api().cuEventDestroy(event_); }

void Event::record(const Stream& stream) const {
    driver_->check(driver_->api().cuEventRecord(event_, stream.get()), "recording a timing event");
}

double elapsed_milliseconds(const CudaDriver& driver, const Event& start, const Event& stop) {
    float milliseconds = 0.0f;
    driver.check(driver.api().cuEventElapsedTime(&milliseconds, start.get(), stop.get()),
                 "reading the kernel time from its events");
    return static_cast<double>(milliseconds);
}

}  // namespace btforge::cuda
