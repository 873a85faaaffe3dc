// Included once per strategy by BOOST_PP_ITERATE() in emu_variant_kernels.cpp (no
// include guard on purpose): pulls in generated/<strategy>_sweep.cu for the
// strategy at position BOOST_PP_ITERATION() of BTFORGE_FOR_EACH_STRATEGY.
#include BTFORGE_EMU_KERNEL_FILE(BOOST_PP_SEQ_ELEM(BOOST_PP_ITERATION(), BTFORGE_EMU_STRATEGY_SEQ))
