#include "host/mpi/mpi_communicator.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "host/mpi/mpi_plugin_api.h"

namespace btforge {

namespace {

constexpr const char* kPluginName = "libbtforge_mpi.so";

std::vector<std::filesystem::path> plugin_candidates() {
    std::vector<std::filesystem::path> candidates;
    if (const char* given = std::getenv("BTFORGE_MPI_PLUGIN"); given != nullptr && *given != '\0') {
        candidates.emplace_back(given);
        return candidates;
    }
    std::error_code error;
    const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        candidates.push_back(executable.parent_path() / kPluginName);
        candidates.push_back(executable.parent_path().parent_path() / "lib" / "btforge" / kPluginName);
    }
    return candidates;
}

}  // namespace

std::unique_ptr<MpiCommunicator> MpiCommunicator::open() {
    std::unique_ptr<MpiCommunicator> world(new MpiCommunicator());
    std::string looked;
    for (const std::filesystem::path& candidate : plugin_candidates()) {
        std::error_code error;
        if (!std::filesystem::exists(candidate, error)) {
            looked += (looked.empty() ? "" : ", ") + candidate.string();
            continue;
        }
        // Note [MPI as a plugin]: RTLD_GLOBAL, because Open MPI's own
        // components are loaded later and look for libmpi's symbols there.
        world->handle_ = dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL);
        if (world->handle_ == nullptr) {
            const char* why = dlerror();
            throw MpiUnavailable("--mpi: cannot load the MPI plugin " + candidate.string() + ": " +
                                 (why != nullptr ? why : "unknown reason") +
                                 " (is the MPI it was built with installed here? Debian: apt install openmpi-bin)");
        }
        world->plugin_ = candidate.string();
        break;
    }
    if (world->handle_ == nullptr && std::getenv("BTFORGE_MPI_PLUGIN") != nullptr && *std::getenv("BTFORGE_MPI_PLUGIN") != '\0') {
        throw MpiUnavailable("--mpi: BTFORGE_MPI_PLUGIN names " + looked + ", which does not exist");
    }
    if (world->handle_ == nullptr) {
        throw MpiUnavailable("--mpi: this btforge has no MPI plugin (looked for " + looked +
                             "): it was built where CMake found no MPI; install it (Debian: apt install "
                             "libopenmpi-dev openmpi-bin) and rebuild, or set BTFORGE_MPI_PLUGIN to the plugin's file");
    }
    const auto entry = reinterpret_cast<btforge_mpi_plugin_fn>(dlsym(world->handle_, "btforge_mpi_plugin"));
    if (entry == nullptr || entry() == nullptr || entry()->version != BTFORGE_MPI_PLUGIN_VERSION) {
        throw MpiUnavailable("--mpi: " + world->plugin_ + " is not an MPI plugin of this btforge (rebuild it with it)");
    }
    world->api_ = entry();
    char library[256] = {};
    if (const int code = world->api_->init(library, sizeof library); code != 0) {
        char text[512] = {};
        world->api_->error_text(code, text, sizeof text);
        world->api_ = nullptr;
        throw MpiUnavailable(std::string("--mpi: MPI_Init failed: ") + text);
    }
    world->library_ = library;
    world->check(world->api_->rank(&world->rank_), "reading this process's rank");
    world->check(world->api_->size(&world->size_), "reading the number of ranks");
    world->check(world->api_->node_rank(&world->node_rank_, &world->node_size_), "grouping the ranks by node");
    char host[256] = {};
    world->check(world->api_->processor_name(host, sizeof host), "reading the host name");
    world->host_ = host;
    return world;
}

MpiCommunicator::~MpiCommunicator() {
    if (api_ != nullptr) api_->finalize();
    // The plugin stays loaded: MPI's libraries may have threads or handlers
    // of their own until the process ends.
}

void MpiCommunicator::check(int code, const std::string& what) const {
    if (code == 0) return;
    char text[512] = {};
    api_->error_text(code, text, sizeof text);
    throw MpiFailure("MPI failed " + what + ": " + text);
}

int MpiCommunicator::all_min(int value) const {
    int minimum = value;
    check(api_->all_min(value, &minimum), "agreeing on the ranks' status");
    return minimum;
}

void MpiCommunicator::send(int destination, const std::string& bytes, const std::string& what) const {
    check(api_->send(destination, bytes.data(), bytes.size()),
          "sending " + what + " from rank " + std::to_string(rank_) + " to rank " + std::to_string(destination));
}

std::string MpiCommunicator::receive(int source, const std::string& what) const {
    const std::string context = "receiving " + what + " from rank " + std::to_string(source);
    std::uint64_t size = 0;
    check(api_->receive_size(source, &size), context);
    std::string bytes(size, '\0');
    check(api_->receive(source, bytes.data(), size), context);
    return bytes;
}

}  // namespace btforge
