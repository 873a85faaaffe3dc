#pragma once

// Note [The commit of a build]
// btforge's version is written once (Note [One version]); the commit a
// binary was built from is read at every build, not at configure time, so a
// build tree that follows the commits never names a stale one
// (cmake/BuildCommit.cmake). It is the commit's full hash, with
// "+modified" where tracked files differed from it; in a clone without the
// git program, HEAD as git wrote it (changes then unseen); "unknown" in a
// tree without its history. The command line (`btforge --version`), the
// Python package (btforge.build_info()) and every result JSON ("/build")
// name both, so a file says which build wrote it.

namespace btforge {

// The project version (CMakeLists.txt's), e.g. "0.1.0".
const char* build_version();
// The commit of this build, as Note [The commit of a build] describes.
const char* build_commit();

}  // namespace btforge
