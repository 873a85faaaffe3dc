import os, shutil, sys
base = 'V0'
def variant(name, edits):
    os.makedirs(name, exist_ok=True)
    for f in ('default_sweep.cu', 'btforge_layout.h', 'btforge_device.cuh'):
        shutil.copy(f'{base}/{f}', f'{name}/{f}')
    path = f'{name}/btforge_device.cuh'
    text = open(path).read()
    for old, new in edits:
        if text.count(old) < 1:
            sys.exit(f'{name}: edit not found: {old[:60]!r}')
        text = text.replace(old, new)
    open(path, 'w').write(text)

# A: loop 1 reads the three per-symbol flags before it branches.
A = [("""            int i = market_index(m, s, t);
            if (m.tradable[i] == 0) continue;
            DefaultSymbolState& st = states[s];
            BracketPosition& pos = st.position;
            Holding& holding = pf.holdings[s];
            FillContext where = fill_context(t, s, pos.trade_index);
            // 1. Orders decided at the previous close.
""", """            int i = market_index(m, s, t);
            DefaultSymbolState& st = states[s];
            BracketPosition& pos = st.position;
            Holding& holding = pf.holdings[s];
            int idle = (st.pending_exit | st.pending_entry | holding.side) == 0;
            if (m.tradable[i] == 0 || idle) continue;
            FillContext where = fill_context(t, s, pos.trade_index);
            // 1. Orders decided at the previous close.
""")]
# C: drawdown division only when it can set a new maximum.
C = [("""    if (acc.peak_equity > 0.0 && equity < acc.peak_equity) {
        double dd = (acc.peak_equity - equity) / acc.peak_equity;
        if (dd > acc.max_drawdown) acc.max_drawdown = dd;
    }""", """    if (acc.peak_equity > 0.0 && equity < acc.peak_equity) {
        double fall = acc.peak_equity - equity;
        double bound = acc.max_drawdown * acc.peak_equity;
        if (!(bound >= 0x1p-1000 && bound <= 0x1p1000) || fall > bound * (1.0 - 0x1p-51)) {
            double dd = fall / acc.peak_equity;
            if (dd > acc.max_drawdown) acc.max_drawdown = dd;
        }
    }""")]
# D: trend signal issues its five loads together.
D = [("""    double adx = s.adx[i];
    if (isnan(adx) || adx < p.adx_min) return 0;
    double fast = s.ema_fast[i];
    double slow = s.ema_slow[i];
    double fast_prev = s.ema_fast[prev];
    double slow_prev = s.ema_slow[prev];
""", """    double adx = s.adx[i];
    double fast = s.ema_fast[i];
    double slow = s.ema_slow[i];
    double fast_prev = s.ema_fast[prev];
    double slow_prev = s.ema_slow[prev];
    if (isnan(adx) || adx < p.adx_min) return 0;
""")]
# G: the last bar's end-of-data closes leave the per-symbol signal loop.
G = [("""            FillContext where = fill_context(t, s, pos.trade_index);
            if (t == last_bar) {
                // The held close of a symbol without a bar here is its last price.
                if (holding.side != 0) {
                    close_position(pf.account, holding, metrics, log, config, where, holding.qty, m.close[i], kTaker,
                                   kEndOfData);
                    st.last_exit_bar = t;
                }
                continue;
            }
            if (m.tradable[i] == 0) continue;""", """            FillContext where = fill_context(t, s, pos.trade_index);
            if (m.tradable[i] == 0) continue;"""),
     ("""        // 5. At the close: time exits, end of data, signals.
        for (int s = 0; s < m.n_symbols; ++s) {""", """        // 5. At the close: time exits, end of data, signals.
        if (t == last_bar) {
          for (int s = 0; s < m.n_symbols; ++s) {
            int i = market_index(m, s, t);
            DefaultSymbolState& st = states[s];
            BracketPosition& pos = st.position;
            Holding& holding = pf.holdings[s];
            FillContext where = fill_context(t, s, pos.trade_index);
                if (holding.side != 0) {
                    close_position(pf.account, holding, metrics, log, config, where, holding.qty, m.close[i], kTaker,
                                   kEndOfData);
                    st.last_exit_bar = t;
                }
          }
        } else
        for (int s = 0; s < m.n_symbols; ++s) {""")]
variant('VA', A)
variant('VC', C)
variant('VD', D)
variant('VG', G)
variant('VACG', A + C + G)
variant('VACDG', A + C + D + G)
D2 = [("""    double adx = s.adx[i];
    if (isnan(adx) || adx < p.adx_min) return 0;
    double fast = s.ema_fast[i];
    double slow = s.ema_slow[i];
    double fast_prev = s.ema_fast[prev];
    double slow_prev = s.ema_slow[prev];
    int cross = 0;
    if (fast > slow && fast_prev <= slow_prev) cross = 1;
    if (fast < slow && fast_prev >= slow_prev) cross = -1;
    if (cross == 0) return 0;
""", """    double adx = s.adx[i];
    double fast = s.ema_fast[i];
    double slow = s.ema_slow[i];
    double fast_prev = s.ema_fast[prev];
    double slow_prev = s.ema_slow[prev];
    int cross = 0;
    if (fast > slow && fast_prev <= slow_prev) cross = 1;
    if (fast < slow && fast_prev >= slow_prev) cross = -1;
    if (cross == 0 || isnan(adx) || adx < p.adx_min) return 0;
""")]
variant('VD2', D2)
variant('VACD2G', A + C + D2 + G)
import re
def volatile_fields(text, struct, fields):
    start = text.index(f'struct {struct} {{')
    end = text.index('};', start)
    body = text[start:end]
    for f in fields:
        new, n = re.subn(rf'(\n\s+)((?:const )?[\w:]+\*?) ({f});', rf'\1\2 volatile \3;', body)
        if n != 1: sys.exit(f'{struct}.{f}: {n} matches')
        body = new
    return text[:start] + body + text[end:]

def variant_p(name, edits, lb):
    variant(name, edits)
    d = f'{name}/btforge_device.cuh'; t = open(d).read()
    t = volatile_fields(t, 'MetricsAccumulator', ['initial_equity', 'n_trades', 'n_wins', 'gross_profit', 'gross_loss',
                                                  'sum_trade_return', 'losing_streak', 'max_losing_streak'])
    t = volatile_fields(t, 'Account', ['fees_paid', 'funding_paid'])
    t = volatile_fields(t, 'DefaultSeries', ['atr', 'breadth'])
    open(d, 'w').write(t)
    l = f'{name}/btforge_layout.h'; t = open(l).read()
    t = volatile_fields(t, 'DefaultParams', ['allow_short', 'rsi_max_long', 'rsi_min_short', 'adx_min', 'breadth_min',
        'rsi_oversold', 'rsi_overbought', 'sl_atr', 'tp1_atr', 'tp1_frac', 'tp_atr', 'risk_per_trade', 'max_leverage',
        'max_positions', 'cooldown_bars'])
    open(l, 'w').write(t)
    k = f'{name}/default_sweep.cu'; t = open(k).read()
    t = t.replace('__launch_bounds__(128, 4)', f'__launch_bounds__(128, {lb})')
    open(k, 'w').write(t)
for lb in (4, 5, 6):
    variant_p(f'VP{lb}', A + C + D2 + G, lb)
