package heapsim

// tenureReferents tenures the remembered set's young referents under the TenureToShrinkRT
// criterion (docs/spur-model.md §3.6, rule 5). SpurGenerationScavenger>>
// computeRefCountToShrinkRememberedSet counts, for each young object, the members of the set
// that refer to it (referenceCountRememberedReferents:), and setRefCountToShrinkRT: picks the
// largest count that half the population reaches; shouldBeTenured: then tenures every
// survivor whose count is at least that (rtRefCountOf: survivor >= refCountToShrinkRT), and
// nothing by age. In heapsim each referent has one holder, so every count is 1, the chosen
// count is 1, and every referent of the set is tenured: its holders leave the set after the
// scavenge (they no longer refer to a young object). Objects no member refers to have a count
// of 0 and are copied as usual (tenured only by overflow).
func (sc *scavengeRun) tenureReferents(items []rsItem) error {
	s := sc.s
	for _, it := range items {
		size := s.size(int(it.rec))
		if err := s.tenure(it.rec, it.count, size); err != nil {
			return err
		}
		sc.tenuredB += uint64(it.count) * size
		sc.tenuredN += float64(it.count)
	}
	return nil
}
