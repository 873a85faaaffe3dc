# Run as a test where CMake found no Python 3 (the CLI tests, the TA-Lib and
# mpmath oracles): those tests cannot run, and that is a failure, not a skip.
message(FATAL_ERROR "$ENV{BTFORGE_MESSAGE}")
