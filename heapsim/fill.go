package heapsim

import "github.com/gctune/gctune/profile"

// The allocation loop's common case as a leaf loop: it calls nothing,
// so the compiler keeps the columns, eden's fill and the running totals in registers, and
// it stops at the first record that needs the general path. Nearly every record of a
// simulation goes through it (docs/simulator.md, "Speed").

// edenFill is what fillEden allocated: the fill, and the totals of the records it bumped.
type edenFill struct {
	used, allocatedBytes, allocatedObjects, aliveAtEndBytes uint64
}

// fillEden bump-allocates records i, i+1, … below stop in eden (rule 4) while each fits whole
// under threshold and none goes straight to old space, starting from fill f, and returns the
// first record it did not allocate (stop when all fitted) and the new fill. sizes holds the
// profile's sizes, read unscaled.
func fillEden(sizes, weights []uint32, flags []uint8, i, stop int, f edenFill, threshold uint64) (int, edenFill) {
	sizes, weights, flags = sizes[:stop], weights[:stop], flags[:stop]
	used, ab, ao, ae := f.used, f.allocatedBytes, f.allocatedObjects, f.aliveAtEndBytes
	for ; i < len(sizes); i++ {
		size, w, fl := uint64(sizes[i]), uint64(weights[i]), flags[i]
		bytes := w * size
		if isDirectOld(size, fl) || used+bytes > threshold {
			break
		}
		used += bytes
		ab += bytes
		ao += w
		if fl&profile.FlagAliveAtEnd != 0 {
			ae += bytes
		}
	}
	return i, edenFill{used, ab, ao, ae}
}

// fillEdenScaled is fillEden with the sizes of a replica (Options.SizeScale): each record's
// size is ScaledSize's.
func fillEdenScaled(sizes, weights []uint32, flags []uint8, i, stop int, f edenFill, threshold uint64, scale float64, seed uint64) (int, edenFill) {
	sizes, weights, flags = sizes[:stop], weights[:stop], flags[:stop]
	used, ab, ao, ae := f.used, f.allocatedBytes, f.allocatedObjects, f.aliveAtEndBytes
	for ; i < len(sizes); i++ {
		size, w, fl := uint64(ScaledSize(sizes[i], scale, seed, i)), uint64(weights[i]), flags[i]
		bytes := w * size
		if isDirectOld(size, fl) || used+bytes > threshold {
			break
		}
		used += bytes
		ab += bytes
		ao += w
		if fl&profile.FlagAliveAtEnd != 0 {
			ae += bytes
		}
	}
	return i, edenFill{used, ab, ao, ae}
}

// skipDeadEden walks eden records r, r+1, … below end at clock now while each is dead, and
// returns the first one that is not (end when all were) and the bytes the dead ones held in
// eden (records allocated straight into old space lie elsewhere). It serves the profiles
// that list no referent, where most eden records are dead and come in long runs; sizes are
// the profile's, unscaled.
func skipDeadEden(sizes, weights []uint32, flags []uint8, deaths []uint64, r, end int, now uint64) (int, uint64) {
	sizes, weights, flags, deaths = sizes[:end], weights[:end], flags[:end], deaths[:end]
	var reclaimed uint64
	for ; r < len(sizes); r++ {
		f := flags[r]
		if deaths[r] > now || f&profile.FlagAliveAtEnd != 0 {
			break
		}
		if size := uint64(sizes[r]); !isDirectOld(size, f) {
			reclaimed += uint64(weights[r]) * size
		}
	}
	return r, reclaimed
}
