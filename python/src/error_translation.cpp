#include "python/src/error_translation.h"

#include <new>
#include <stdexcept>
#include <string>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "host/app/usage_error.h"
#include "host/data/data_error.h"
#include "host/io/atomic_file.h"
#include "host/spec/spec_error.h"

namespace nb = nanobind;

namespace btforge::python {

namespace {

void raise(const char* class_name, const std::string& message, nb::kwargs fields) {
    const nb::object type = nb::module_::import_("btforge.errors").attr(class_name);
    const nb::object error = type(message, **fields);
    PyErr_SetObject(type.ptr(), error.ptr());
}

void translate(const std::exception_ptr& error, void*) {
    try {
        std::rethrow_exception(error);
    } catch (const DataError& e) {
        nb::kwargs fields;
        fields["file"] = e.file();
        fields["line"] = e.line();
        fields["column"] = e.column();
        fields["rule"] = e.rule();
        fields["detail"] = e.message();
        raise("DataError", e.what(), fields);
    } catch (const SpecError& e) {
        nb::kwargs fields;
        fields["origin"] = e.origin();
        fields["json_pointer"] = e.json_pointer();
        if (e.position()) {
            fields["line"] = e.position()->line;
            fields["column"] = e.position()->column;
        }
        fields["detail"] = e.message();
        raise("SpecError", e.what(), fields);
    } catch (const UsageError& e) {
        raise("UsageError", e.what(), nb::kwargs());
    } catch (const OutputCancelled& e) {
        raise("Cancelled", e.what(), nb::kwargs());
    } catch (const std::bad_alloc&) {
        // Note [Messages, not library texts]
        PyErr_SetString(PyExc_MemoryError,
                        "out of memory: this run needs more memory than the machine gives it (fewer bars, symbols "
                        "or combinations, or a smaller top)");
    } catch (const std::exception& e) {
        raise("BtforgeError", e.what(), nb::kwargs());
    }
}

}  // namespace

void register_error_translation() { nb::register_exception_translator(translate); }

}  // namespace btforge::python
