//go:build !safezone_broken

package main

// brokenBuild is false in every real build. See brokenbuild_on.go.
const brokenBuild = false
