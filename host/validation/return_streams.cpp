#include "host/validation/return_streams.h"

#include <stdexcept>
#include <string>

namespace btforge {

std::vector<double> returns_of_equity_marks(std::span<const double> marks, int n_marks, double initial_equity) {
    if (n_marks < 1 || marks.size() % static_cast<std::size_t>(n_marks) != 0) {
        throw std::invalid_argument("the equity marks are not whole rows of " + std::to_string(n_marks) + " (" +
                                    std::to_string(marks.size()) + " values)");
    }
    std::vector<double> returns(marks.size());
    const std::size_t width = static_cast<std::size_t>(n_marks);
    for (std::size_t row = 0; row < marks.size(); row += width) {
        double previous = initial_equity;
        for (std::size_t i = 0; i < width; ++i) {
            const double mark = marks[row + i];
            returns[row + i] = previous > 0.0 ? mark / previous - 1.0 : 0.0;
            previous = mark;
        }
    }
    return returns;
}

}  // namespace btforge
