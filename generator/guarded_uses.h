#pragma once

#include <clang-c/Index.h>

#include <string>
#include <unordered_set>

#include "generator/clang_util.h"
#include "generator/kernel_model.h"

namespace btforge::gen {

// Fills e.uses and e.changeable_instances of the marked function `function`
// (Note [Guarded uses]): the reads of marked structs' fields and the calls
// of marked functions in its body, each with the tests that hold where it
// runs, and the places where an instance of a marked struct is made or may
// be changed (ChangeableInstance). `marked_usrs` are the USRs of every
// marked entity.
void fill_guarded_uses(CXTranslationUnit tu, CXCursor function, const std::unordered_set<std::string>& marked_usrs,
                       const clang_util::PathMapper& paths, Entity& e);

// Fills e.changeable_instances of the marked struct `record`: its fields of
// marked struct types held by value or through non-const pointers.
void fill_struct_instances(CXCursor record, const std::unordered_set<std::string>& marked_usrs,
                           const clang_util::PathMapper& paths, Entity& e);

}  // namespace btforge::gen
