package lifetimes

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// topRecords keeps what a full sort would list first: largest first, ties earliest first,
// for every k, on sizes with many ties (issue 22: its sorted slice made --top quadratic; the
// heap must give the same order).
func TestTopRecordsMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 100, 5000} {
		sizes := make([]uint32, n)
		for i := range sizes {
			sizes[i] = uint32(rng.IntN(50)) // many ties
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		slices.SortStableFunc(all, func(a, b int) int { return cmp.Compare(sizes[b], sizes[a]) })
		for _, k := range []int{0, 1, 2, 10, n / 2, n, n + 3} {
			top := newTopRecords(min(k, n))
			for i, s := range sizes {
				top.offer(i, s)
			}
			want := all[:min(k, n)]
			got := top.sorted()
			if len(want) == 0 {
				assert.Empty(t, got, "n=%d k=%d", n, k)
				continue
			}
			assert.Equal(t, want, got, "n=%d k=%d", n, k)
		}
	}
}
