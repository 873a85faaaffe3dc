#include <doctest/doctest.h>

#include "host/data/data_error.h"

using btforge::DataError;

TEST_CASE("DataError formats file:line:col: rule: message") {
    const DataError e("m.csv", 3, 4, "high-below-low", "high 1 is below low 2");
    CHECK(std::string(e.what()) == "m.csv:3:4: high-below-low: high 1 is below low 2");
    CHECK(e.file() == "m.csv");
    CHECK(e.line() == 3);
    CHECK(e.column() == 4);
    CHECK(e.rule() == "high-below-low");
    CHECK(e.message() == "high 1 is below low 2");
}

TEST_CASE("DataError leaves out location parts that do not apply") {
    CHECK(std::string(DataError("m.csv", 0, 0, "empty-file", "no bars").what()) == "m.csv: empty-file: no bars");
    CHECK(std::string(DataError("m.csv", 7, 0, "missing-column", "x").what()) == "m.csv:7: missing-column: x");
}
