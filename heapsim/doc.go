// Package heapsim simulates the Pharo VM's Spur memory manager, the generation scavenger and
// the mark-compact old space, over an object-lifetime Profile, and reports what the collector
// did and how long it took under a calibrated cost model.
//
// It implements the normative rules of ../shared/design/spur-gc-model.md §7, each cited in the
// code by its rule number and the section it comes from:
//
//   - rule 1, §1.1: the new-space layout T, S, E and the scavenge threshold (ComputeLayout);
//   - rules 2-4, §2: bump allocation in eden up to the threshold, objects over 65,535 slots
//     and pinned ones straight to old space, the object that crosses the threshold placed in
//     old space, and the image's protocol for a failed large allocation (§2.3);
//   - rules 5-8, §3: the remembered set, past and eden survivors copied to future space,
//     per-object overflow tenuring, tenure-by-age below the threshold, the 90 % rule, param 6
//     as a count or a proportion, Pharo's session-start value, and the bug588 mode;
//   - rules 9-13, §4: the ratio test after scheduled scavenges only, top-up growth to the
//     headroom, full GC (mark, inner scavenge, sliding compaction), shrink of whole empty
//     non-first segments at full GC only, segment accounting;
//   - rule 14, §6: statistics and the cost model (Cost, DefaultCost, docs/calibration.md).
//
// The package is pure: Simulate is a deterministic function of the Profile, Params and Cost,
// with no files, clocks, goroutines or globals, and it never writes to the Profile, so many
// simulations can share one Profile in parallel.
//
// # How it runs
//
// Records are streamed in birth order on the allocated-bytes clock. A record stands for
// Weight objects of SizeBytes each; they fill eden until the next one would cross the
// threshold, which is when the scavenge runs (its clock is that record's birth). A scavenge
// visits the past survivor space (chunks of objects in address order) and the records
// allocated since the last scavenge, so each record is looked at about twice in all. Old-space
// objects that will die are filed in a death calendar by death time, so a full GC finds the
// dead ones without scanning the live heap; objects alive at the end are only counted.
//
// # Simplifications
//
// Each is named here, in docs/simulator.md and at the code that makes it, with why it is safe.
//
//  1. Survivor order. The VM copies remembered-set referents first, then stack roots, then
//     breadth-first (§3.1); heapsim copies past survivors in address order, then eden
//     survivors in allocation order. The VM's order only approximates age too (§3.1 item 4),
//     and age tenuring needs exactly that: older objects at lower addresses.
//  2. Old-space free space. Spur keeps free lists and a size-ordered tree; heapsim keeps one
//     free chunk at the top of each segment, which is what sliding compaction leaves, places
//     small objects first-fit from the lowest segment with room and skips segment tails under
//     4 KiB until the next compaction. Between full GCs Spur frees nothing either, so the free
//     space is the compacted tail in both.
//  3. Compaction. Old space is taken to be in allocation order (true after a sliding
//     compaction, which keeps order, when new objects go to the free space at the top), so the
//     first hole at a full GC lies in the oldest epoch (full-GC interval) that lost an object;
//     the bytes moved are the live bytes above it, counting half of that epoch. Compaction is
//     always complete (the VM may only sweep part of a huge heap when its saved-first-fields
//     buffer overflows, §4.1 step 3), and small objects are packed before each large object
//     takes the lowest segment with room: large objects never straddle a segment bridge, which
//     is what makes headroom matter (Paper §4.2).
//  4. The remembered set holds the profile's containers only: old objects that keep receiving
//     young references while they live, scanned in full at every scavenge (§3.6). Ordinary
//     tenured objects that still point at young ones are not tracked: profiles do not record
//     pointers, and their entries are short-lived and small next to a container's. The set's
//     capacity doubles as needed, but the extra scavenge that growth schedules is not
//     simulated, and neither is TenureToShrinkRT (§3.5, "rare in practice").
//  5. Not modelled: weak and ephemeron processing, pinned objects' positions, stack and
//     context allocation in eden's reserve, explicit full GCs (no profile records them;
//     FullGCsExplicit stays 0), snapshots.
//  6. Time. The cost model is linear in the work counted (bytes and objects copied, tenured,
//     marked, swept, moved; slots scanned; segments added and released); mutator time is
//     linear in bytes and objects allocated. Nothing models caches or the OS.
package heapsim
