# Run by the cli_end_to_end test when CMake found no Python 3: the CLI
# end-to-end tests cannot run, and that is a failure, not a skip.
message(FATAL_ERROR "$ENV{BTFORGE_MESSAGE}")
