import re,sys
src, out, fixsym, nofund = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]=="1"
t=open(src).read()
if nofund: t=t.replace("m.funding_events[i]","0")
if fixsym:
    helper=("\nBTFORGE_DEVICE inline btforge::device::MarketView btforge_fixed_market(btforge::device::MarketView m) { m.n_symbols = %d; return m; }\n" % fixsym)
    i=t.index('extern "C" BTFORGE_GLOBAL')
    t=t[:i]+helper+t[i:]
    t=re.sub(r"_strategy\(launch\.market,", "_strategy(btforge_fixed_market(launch.market),", t)
open(out,"w").write(t)
