#pragma once

// Note [MPI as a plugin]
// `btforge sweep --mpi` needs MPI; nothing else does. The btforge binary does
// not link MPI: the few MPI calls a sweep makes live in a small plugin,
// libbtforge_mpi.so (mpi_plugin.cpp), built where CMake finds MPI and loaded
// with dlopen only when --mpi is given (mpi_communicator.cpp). So one binary
// runs on machines without MPI (a laptop, the CI's quickstart, a GPU box
// with nothing installed) and joins an MPI job where there is one; a build
// for another MPI is a rebuild of the plugin alone. A separate btforge-mpi
// executable would do as much but give users two commands to keep apart.
// The plugin's interface is this C table: no C++ type crosses it, so a
// btforge with a static libstdc++ (the device preset) can load a plugin
// linked with the system's. Calls return 0 or an MPI error code, which
// error_text turns into words.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BTFORGE_MPI_PLUGIN_VERSION 1

struct btforge_mpi_api {
    int version;  // BTFORGE_MPI_PLUGIN_VERSION
    // MPI_Init_thread (MPI_THREAD_FUNNELED: workers never call MPI), errors
    // returned rather than fatal; `library` receives MPI's library version.
    int (*init)(char* library, int library_size);
    int (*rank)(int* rank);
    int (*size)(int* size);
    // This rank's index among the ranks of its node, and their number.
    int (*node_rank)(int* rank, int* size);
    int (*processor_name)(char* name, int name_size);
    // The minimum of `value` over all ranks, on every rank.
    int (*all_min)(int value, int* minimum);
    // A message of any length to `destination` (sent in pieces under 1 GiB),
    // and its receipt from `source`: receive_size first, then receive.
    int (*send)(int destination, const void* bytes, uint64_t size);
    int (*receive_size)(int source, uint64_t* size);
    int (*receive)(int source, void* bytes, uint64_t size);
    void (*error_text)(int code, char* text, int text_size);
    int (*finalize)(void);
};

// The plugin's one exported symbol.
typedef const struct btforge_mpi_api* (*btforge_mpi_plugin_fn)(void);
const struct btforge_mpi_api* btforge_mpi_plugin(void);

#ifdef __cplusplus
}
#endif
