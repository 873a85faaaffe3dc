#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Cooldown]
// After a position of a symbol exits at bar x, that symbol takes no new
// entry decided at a bar t with t - x <= cooldown_bars (0: not on the exit's
// own bar, which a signal at the close would otherwise reopen). A symbol
// that never exited starts at kNoExitYet: far enough back for any cooldown,
// near enough that t - kNoExitYet cannot overflow an int.
BT_KERNEL inline constexpr int kNoExitYet = -1000000000;

BT_KERNEL inline int in_cooldown(int bar, int last_exit_bar, int cooldown_bars) {
    return bar - last_exit_bar <= cooldown_bars ? 1 : 0;
}

}  // namespace btforge
