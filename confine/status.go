package confine

// Status says whether this system can confine commands, and why not.
type Status struct {
	// LandlockABI is the kernel's Landlock ABI version (1 for Linux 5.13,
	// 2 for 5.19, 3 for 6.2, 4 for 6.7, 5 for 6.10, 6 for 6.12, 7 for
	// 6.15); 0 where there is none.
	LandlockABI int

	// Landlock says why commands cannot be confined here; nil when they
	// can. It wraps [ErrUnavailable].
	Landlock error

	// ReadOnly says why the ReadOnly paths of a ruleset cannot be kept
	// read-only here; nil when they can, as far as can be told without
	// starting a process. Where it is not nil, a ruleset must have no
	// ReadOnly paths (the launcher refuses to run one it cannot enforce)
	// and those paths stay guarded by the hook's analysis alone: a
	// confined program can write them. It wraps [ErrUnavailable].
	ReadOnly error
}

// Confine reports whether commands can be confined: whether s.Landlock is
// nil.
func (s Status) Confine() bool { return s.Landlock == nil }
