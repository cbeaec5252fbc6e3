// Package recommend chooses the configuration gctune recommends from a finished search, and
// checks each of its changes by simulation.
//
// The search minimises one number, the simulated run time, but a user also pays for memory and
// for every parameter they change. So the recommendation is made in three steps:
//
//  1. Select: among the feasible trials whose objective is within a tolerance of the best one
//     (1 % by default), take the one with the smallest peak footprint. A trial counts only when
//     it is COMPLETE, not marked infeasible and has a finite, positive value: a value of 0 (a
//     tampered or broken row) never wins.
//  2. Put back: each parameter the chosen trial changes is tried at its VM default, one at a
//     time, each with the problem's own simulator. The cheapest is put back when it costs less
//     than the tolerance against the configuration before it, keeps the configuration feasible,
//     and keeps the objective and the peak footprint within the tolerance of the chosen trial's;
//     then the others are tried again from the new configuration, until none qualifies. The
//     result is itself simulated: its figures are measured, not estimated.
//  3. Judge: when the result is within KeepDefaultsWithin (2 %) of the defaults' objective, the
//     recommendation is to keep the defaults; the configuration is still reported, so that a
//     user sees what the best would be.
//
// Select is pure and works on Candidates; Recommend runs all three steps on a study's trials.
// The package sits between report and search: it imports search, objective, heapsim and
// trialattr's constants, and nothing above it.
package recommend
