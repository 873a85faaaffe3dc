#include "host/version/build_version.h"

#include "build_commit.h"  // written at build time (Note [The commit of a build])

namespace btforge {

const char* build_version() { return BTFORGE_VERSION; }

const char* build_commit() { return BTFORGE_COMMIT; }

}  // namespace btforge
