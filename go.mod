module github.com/safezonehq/safezone

go 1.26.0

require (
	github.com/armon/go-socks5 v0.0.0-20160902184237-e75332964ef5
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/elazarl/goproxy v1.9.4
	github.com/go-json-experiment/json v1.27.2
	github.com/goccy/go-yaml v1.19.2
	github.com/pborman/getopt/v2 v2.2.0
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f
	golang.org/x/net v0.50.0
	golang.org/x/sys v0.47.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	golang.org/x/text v0.34.0 // indirect
	golang.org/x/tools v0.41.0 // indirect
)
