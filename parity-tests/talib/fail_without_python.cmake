# Run by the talib_fixture test when CMake found no Python 3: the TA-Lib oracle
# cannot run, and that is a failure, not a skip.
message(FATAL_ERROR "$ENV{BTFORGE_MESSAGE}")
