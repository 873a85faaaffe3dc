#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <nanobind/ndarray.h>

namespace btforge::python {

// Note [Arrays without copies]
// A vector the engine filled becomes a NumPy array without a copy: the
// vector moves to the heap, a capsule owns it, and the array points into it;
// NumPy frees the vector when the last view of it goes. Arrays that view a
// Market (its timestamps, prices) are owned by the Python object holding
// the market instead, so they stay valid as long as any of them is used.
template <typename T>
nanobind::ndarray<nanobind::numpy, T> array_of(std::vector<T>&& values) {
    auto* owned = new std::vector<T>(std::move(values));
    nanobind::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
    const std::size_t shape[1] = {owned->size()};
    return nanobind::ndarray<nanobind::numpy, T>(owned->data(), 1, shape, owner);
}

// A read-only view of `rows` x `columns` values at `data`, kept alive by `owner`.
template <typename T>
nanobind::ndarray<nanobind::numpy, const T> view_of(const T* data, std::size_t rows, std::size_t columns,
                                                    nanobind::handle owner) {
    const std::size_t shape[2] = {rows, columns};
    return nanobind::ndarray<nanobind::numpy, const T>(data, columns == 0 ? 1 : 2, shape, owner);
}

}  // namespace btforge::python
