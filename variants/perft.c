/* perft.c: recursive move-path counting with copy-make. */
#include "perft.h"

uint64_t perft(const Variant *v, const Position *p, int depth, PerftStats *stats)
{
    if (depth <= 0)
        return 1;
    uint64_t count = 0;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        Position child;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, __builtin_ctzll(m), &child, &info, NULL);
        if (stats) {
            stats->laps += info.laps;
            stats->captures += info.mid_captures + info.final_capture;
            stats->ended += ev == EV_OVER;
            stats->endless += ev == EV_ENDLESS;
        }
        if (ev == EV_ENDLESS)
            continue;
        count += (depth == 1) ? 1 : (ev == EV_OVER ? 0 : perft(v, &child, depth - 1, stats));
    }
    return count;
}
