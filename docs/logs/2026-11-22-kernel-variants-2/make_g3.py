import os, shutil, sys, re
def variant(name, dev_edits=(), layout_edits=(), lb=6):
    os.makedirs(name, exist_ok=True)
    for f in ('default_sweep.cu', 'btforge_layout.h', 'btforge_device.cuh'):
        shutil.copy(f'G3/{f}', f'{name}/{f}')
    for fname, edits in (('btforge_device.cuh', dev_edits), ('btforge_layout.h', layout_edits)):
        p = f'{name}/{fname}'; t = open(p).read()
        for old, new in edits:
            if t.count(old) != 1: sys.exit(f'{name}: {old!r} x{t.count(old)}')
            t = t.replace(old, new)
        open(p, 'w').write(t)
    k = f'{name}/default_sweep.cu'; t = open(k).read()
    t = t.replace('__launch_bounds__(128, 5)', f'__launch_bounds__(128, {lb})'); open(k, 'w').write(t)
series_cold = [('    const double* rsi;\n', '    const double* BTFORGE_COLD rsi;\n'),
               ('    const double* bb_upper;\n', '    const double* BTFORGE_COLD bb_upper;\n'),
               ('    const double* bb_lower;\n', '    const double* BTFORGE_COLD bb_lower;\n')]
metrics_cold = [('    double sum_sq_downside;', '    double BTFORGE_COLD sum_sq_downside;'),
                ('    long long bars_exposed;', '    long long BTFORGE_COLD bars_exposed;')]
params_cold = [('    double trail_activate_atr;', '    double BTFORGE_COLD trail_activate_atr;'),
               ('    int max_hold_bars;', '    int BTFORGE_COLD max_hold_bars;')]
variant('G3s6', series_cold)
variant('G3m6', metrics_cold)
variant('G3p6', layout_edits=params_cold)
variant('G3all6', series_cold + metrics_cold, params_cold)
variant('G3all5', series_cold + metrics_cold, params_cold, lb=5)
variant('G3ms6', series_cold + metrics_cold)
variant('G3mp6', metrics_cold, params_cold)
variant('G3sp6', series_cold, params_cold)
bb_only = series_cold[1:]
variant('G3mbp6', metrics_cold + bb_only, params_cold)
variant('G3mb6', metrics_cold + bb_only)
