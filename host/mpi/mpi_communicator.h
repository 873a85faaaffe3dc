#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct btforge_mpi_api;

namespace btforge {

// --mpi cannot start: no plugin, no MPI library, MPI_Init failed. what()
// says which and what to do.
class MpiUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An MPI call failed during the run (a rank gone, a network error).
class MpiFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The world of an MPI job, through the plugin (Note [MPI as a plugin]).
// Opened once per process; MPI is finalized when it is destroyed.
class MpiCommunicator {
public:
    // Loads the plugin and initialises MPI. The plugin is looked for in
    // $BTFORGE_MPI_PLUGIN, beside the executable (the build tree), then in
    // ../lib/btforge/ from it (an install). Throws MpiUnavailable.
    static std::unique_ptr<MpiCommunicator> open();
    ~MpiCommunicator();
    MpiCommunicator(const MpiCommunicator&) = delete;
    MpiCommunicator& operator=(const MpiCommunicator&) = delete;

    int rank() const noexcept { return rank_; }
    int size() const noexcept { return size_; }
    int node_rank() const noexcept { return node_rank_; }    // among its node's ranks
    int node_size() const noexcept { return node_size_; }    // ranks on its node
    const std::string& host() const noexcept { return host_; }
    const std::string& library() const noexcept { return library_; }  // "Open MPI v4.1.4, ..."
    const std::string& plugin() const noexcept { return plugin_; }    // its file

    // The minimum of `value` over all ranks, on every rank.
    int all_min(int value) const;
    // Throw MpiFailure naming `what` and the peer.
    void send(int destination, const std::string& bytes, const std::string& what) const;
    std::string receive(int source, const std::string& what) const;

private:
    MpiCommunicator() = default;
    void check(int code, const std::string& what) const;

    void* handle_ = nullptr;
    const btforge_mpi_api* api_ = nullptr;
    int rank_ = 0;
    int size_ = 1;
    int node_rank_ = 0;
    int node_size_ = 1;
    std::string host_;
    std::string library_;
    std::string plugin_;
};

}  // namespace btforge
