//go:build safezone_broken

package main

// brokenBuild makes a binary built with -tags safezone_broken exit 1 at once,
// like a crashed hook. The end-to-end tests use it to show that the host's
// "onFailure": "block" turns such a failure into a blocked call; without it
// Claude Code ignores the hook and the tool runs. No real build has this tag.
const brokenBuild = true
