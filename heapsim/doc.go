// Package heapsim simulates the Pharo VM's Spur memory manager, the generation scavenger and
// the mark-compact old space, over an object-lifetime Profile, and reports what the collector
// did and how long it took under a calibrated cost model.
//
// It implements the rules of docs/spur-model.md §7 (the Spur collector as gctune models it,
// each rule with the VM method it comes from), each cited in the code by its rule number and
// the section of docs/spur-model.md it comes from:
//
//   - rule 1, §1.1: the new-space layout T, S, E and the scavenge threshold (ComputeLayout);
//   - rules 2-4, §2: bump allocation in eden up to the threshold, objects over 65,535 slots
//     and pinned ones straight to old space, the object that crosses the threshold placed in
//     old space, and the image's protocol for a failed large allocation (§2.3);
//   - rules 5-8, §3: the remembered set (write barrier; a member stays iff it still refers to
//     a young object after the scavenge; a container or a stated holder tenured with young
//     referents joins), its referents copied first, then past and eden survivors, stated
//     young→young referents breadth-first after their holders, per-object overflow tenuring,
//     tenure-by-age below the threshold, the 90 % rule, param 6 as a count or a proportion,
//     Pharo's session-start value, and the bug588 mode;
//   - rules 9-13, §4: the ratio test after scheduled scavenges only, top-up growth to the
//     headroom, full GC (marking per object and pointer slot, inner scavenge, one compaction
//     pass bounded by the saved-first-fields space), shrink of whole empty non-first segments
//     at full GC only when free space exceeds both threshold and headroom, segment accounting;
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
//  1. Survivor order. Like the VM, heapsim copies the remembered set's referents first, by
//     their holder's place in the set (§3.1); within one holder it takes store order (past
//     space, then eden) for slot order. The other survivors follow in past-space address
//     order, then eden allocation order, where the VM goes stack roots then breadth-first:
//     heapsim has no pointers between young objects unless the profile states them (7).
//     Age tenuring needs only that older objects lie lower, which both orders give.
//  2. Old-space free space. Spur keeps free lists and a size-ordered tree; heapsim keeps one
//     free chunk at the top of each segment, which is what sliding compaction leaves, places
//     small objects first-fit from the lowest segment with room and skips segment tails under
//     4 KiB until the next compaction. Between full GCs Spur frees nothing either, so the free
//     space is the compacted tail in both.
//  3. Compaction. Old space is taken to be in allocation order (true after a sliding
//     compaction, which keeps order, when new objects go to the free space at the top), so the
//     first hole at a full GC lies in the oldest epoch (full-GC interval) that lost an object;
//     the bytes to move are the live bytes above it, counting half of that epoch, and their
//     object count is taken at old space's average object size. One pass moves at most
//     max(extent / 40, eden) / 8 objects (§4.3: the saved-first-fields space is assumed always
//     available); beyond that the dead bytes stay as holes, placed among the small objects,
//     reused by small objects only. The pointer-update pass is priced over the live old
//     objects' headers and pointer slots (the dead objects' headers are not counted); a fully
//     compacted heap costs nothing. Small objects are packed before each large object takes
//     the lowest segment with room: large objects never straddle a segment bridge, which is
//     what makes headroom matter (Paper §4.2). Measured: on the bundled DataFrame workloads
//     the bound leaves the searched optimum unchanged (docs/simulator.md).
//  4. The remembered set holds the profile's containers and the old holders of stated
//     young→young references (7) only: the old objects the profile says point at young ones,
//     through listed referents (Profile.StoredIn), a window of unlisted young stores, or
//     Profile.HeldBy. Where the profile states no young→young reference, a young container's
//     referents are copied with the other survivors, and an ordinary tenured object never
//     joins the set unless the profile names it a container.
//     FiLiP and Illimani profiles carry no pointers at all: for them the set stays empty
//     (docs/workloads.md). The set's capacity doubles as needed; each doubling counts a
//     scheduled scavenge, priced (fixed part and a rescan of the set) but not replayed. In
//     the red zone (limit − 4, tested on the entries the last scavenge kept) a scheduled
//     scavenge uses TenureToShrinkRT: every referent of the set is tenured (§3.5, §3.6).
//  5. Not modelled: weak and ephemeron processing, pinned objects' positions, stack and
//     context allocation in eden's reserve, explicit full GCs (no profile records them;
//     FullGCsExplicit stays 0), snapshots.
//  6. Time. The cost model is linear in the work counted (bytes and objects copied, tenured,
//     moved; objects marked and pointer slots followed; remembered-set slots scanned, pointer
//     and immediate apart; bytes swept; segments added and released); mutator time is linear
//     in bytes and objects allocated. Nothing models caches or the OS. Marking counts the
//     survivors of the inner scavenge at the profile's average pointer slots per object, and
//     the image at half its words (imagePointerSlotShare).
//  7. Young→young references (Profile.HeldBy; youngrefs.go, docs/simulator.md simplification
//     8): a stated referent of a live young holder is copied after every other survivor, by
//     its holder's place in the copy order (breadth-first, scavengeLoop and
//     scavengeFutureSurvivorSpaceStartingAt:), and an old holder with a young referent is in
//     the remembered set (copyToOldSpace:bytes:format: → remember:). A record's objects are
//     held as a group; the order among held referents is approximated (youngrefs.go). When
//     HeldBy is nil nothing of this runs.
package heapsim
