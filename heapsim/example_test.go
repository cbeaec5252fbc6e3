package heapsim_test

import (
	"fmt"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
)

// exampleProfile builds a small profile by hand: 256 MiB of 64-byte objects that die within a
// few KiB of allocation, one 64-byte object in ten of which lives to the end, and a 24 MiB array
// (over the 65,535-slot limit, so allocated straight in old space) every 16 MiB, as in the
// headroom experiment of Palumbo et al. (IWST 2023, §4.2).
func exampleProfile() *profile.Profile {
	var b profile.Builder
	parser, row, column := b.Class("NumberParser"), b.Class("Array"), b.Class("Array")
	const end = 256 << 20
	next := uint64(0) // the next array's birth
	for clock := uint64(0); clock < end; clock += 64 * 100 {
		b.Add(parser, 64, clock, min(clock+4096, end), 90, 0)
		b.Add(row, 64, clock, end, 10, profile.FlagAliveAtEnd)
		if clock >= next {
			b.Add(column, 24<<20, clock, end, 1, profile.FlagAliveAtEnd)
			next += 16 << 20
		}
	}
	p, err := b.Build(profile.Meta{Source: "example", EndBytes: end})
	if err != nil {
		panic(err)
	}
	return p
}

// Simulate runs the Spur collector over a profile under the VM defaults and under a larger
// growth headroom: each array that does not fit the free old space forces a full GC and a growth; a
// 64 MiB headroom grows old space by segments that hold two of them.
func ExampleSimulate() {
	profile := exampleProfile()
	defaults := heapsim.DefaultParams()
	roomy := defaults
	roomy.GrowthHeadroomBytes = 64 * heapsim.MiB
	for _, c := range []struct {
		name   string
		params heapsim.Params
	}{{"defaults", defaults}, {"64 MiB headroom", roomy}} {
		st, err := heapsim.Simulate(profile, c.params, heapsim.DefaultCost())
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %d scavenges, %d full GCs, %d segments added\n", c.name, st.Scavenges, st.FullGCs, st.Grows)
	}
	// Output:
	// defaults: 16 scavenges, 17 full GCs, 16 segments added
	// 64 MiB headroom: 19 scavenges, 9 full GCs, 8 segments added
}
