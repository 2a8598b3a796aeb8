package shell

import (
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
)

// netTools are the programs that fetch or copy over the network, sorted by
// name: their URLs and host:path operands are not files.
var netTools = []cmdSpec{
	{name: "curl", role: roleCustom, custom: curlCmd},
	{name: "rsync", role: roleCopy, lax: true, shortArg: "efBTM", longArg: []string{"rsh", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "password-file", "log-file", "log-file-format", "backup-dir", "suffix", "compare-dest", "copy-dest", "link-dest", "temp-dir", "partial-dir", "chmod", "chown", "usermap", "groupmap", "timeout", "contimeout", "bwlimit", "port", "block-size", "max-size", "min-size", "max-delete", "modify-window", "out-format", "info", "debug", "iconv", "checksum-choice", "compress-choice", "compress-level", "skip-compress", "rsync-path", "sockopts", "outbuf", "remote-option", "stop-after", "stop-at", "write-batch", "read-batch", "only-write-batch", "address", "protocol"}, files: []optFile{{"exclude-from", Read}, {"include-from", Read}, {"files-from", Read}, {"password-file", Read}, {"log-file", Write}, {"write-batch", Write}, {"only-write-batch", Write}, {"read-batch", Read}}, recursive: []string{"del", "delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "delete-missing-args", "remove-source-files"}, execOpts: []string{"e", "rsh"}},
	{name: "scp", role: roleCopy, short: "346ABCOpqRrTv", shortArg: "cFiJlmoPSX", files: []optFile{{"F", Read}, {"i", Read}}, execOpts: []string{"S", "o"}},
	{name: "wget", role: roleCustom, custom: wgetCmd},
}

// curlOptions are curl's options that take a value (curl(1)); any other
// takes none.
var curlOptions = cmdSpec{
	lax:      true,
	shortArg: "oDcTKEdFHXuAebwmxUYyzrQtCPhJ",
	longArg: []string{"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "output-dir", "libcurl",
		"etag-save", "etag-compare", "upload-file", "config", "cert", "key", "cacert", "capath", "netrc-file", "data",
		"data-binary", "data-raw", "data-ascii", "data-urlencode", "json", "form", "form-string", "header", "request",
		"user", "user-agent", "referer", "cookie", "write-out", "max-time", "connect-timeout", "proxy", "proxy-user",
		"retry", "retry-delay", "retry-max-time", "url", "range", "resolve", "connect-to", "limit-rate", "max-filesize",
		"interface", "dns-servers", "oauth2-bearer", "aws-sigv4", "continue-at", "time-cond", "quote", "ciphers",
		"cert-type", "key-type", "pass", "expect100-timeout", "keepalive-time", "unix-socket", "variable", "url-query",
		"create-file-mode", "proto", "proto-redir", "proto-default", "max-redirs", "header-file"},
}

// curlFiles are curl's options whose value is a file it writes or reads;
// "-" is stdout or stdin.
var curlFiles = []optFile{
	{"o", Write}, {"output", Write}, {"D", Write}, {"dump-header", Write},
	{"c", Write}, {"cookie-jar", Write}, {"trace", Write}, {"trace-ascii", Write},
	{"stderr", Write}, {"output-dir", Write}, {"libcurl", Write}, {"etag-save", Write},
	{"T", Read}, {"upload-file", Read}, {"K", Read}, {"config", Read},
	{"cert", Read}, {"E", Read}, {"key", Read}, {"cacert", Read}, {"capath", Read},
	{"netrc-file", Read}, {"etag-compare", Read},
}

// curlData are curl's options whose value "@FILE" sends FILE's contents
// (curl(1) -d: "If you start the data with the letter @, the rest should
// be a file name"); --data-raw takes "@" literally.
var curlData = []string{"d", "data", "data-binary", "data-ascii", "data-urlencode", "json"}

// curlRemoteName are the options that save into a file named after the URL.
var curlRemoteName = []string{"O", "remote-name", "remote-name-all", "J"}

// curlCmd: URLs are not files; -o/--output, -D, -c, --trace write; -T, -K,
// -d @file, --data-binary @file, -F name=@file read; -O writes into the
// working directory (or --output-dir).
func curlCmd(c *cmdCtx) {
	c.spec = &curlOptions
	if !c.getopt() {
		return
	}
	remoteName := false
	for _, o := range c.opts {
		if containsStr(curlRemoteName, o.name) {
			remoteName = true
		}
		if o.has {
			c.curlValue(o)
		}
	}
	if remoteName {
		if _, ok := c.value("output-dir"); !ok {
			c.addCwd(Write, false)
		}
	}
	c.cmd.ReadOnly = !c.writes()
}

// curlValue adds the file a curl option's value names, if any.
func (c *cmdCtx) curlValue(o opt) {
	for _, f := range curlFiles {
		if f.name == o.name {
			if !(o.val.unknown == "" && o.val.lit == "-") {
				c.add(o.val, f.access)
			}
			return
		}
	}
	if o.val.unknown != "" {
		if o.name == "d" || o.name == "data" {
			c.unknown("a curl data value is not static")
		}
		return
	}
	if f, ok := curlDataFile(o.name, o.val.lit); ok {
		c.add(sword{lit: f, pat: glob.Escape(f), src: f}, Read)
	}
}

// curlDataFile returns the file a static data value reads (curl(1)): -d
// @FILE; --data-urlencode [NAME]@FILE; -F NAME=@FILE and NAME=<FILE, with
// ";type=..." after it; -H @FILE.
func curlDataFile(name, v string) (string, bool) {
	switch {
	case containsStr(curlData, name) && strings.HasPrefix(v, "@"):
		return v[1:], true
	case name == "data-urlencode":
		_, f, ok := strings.Cut(v, "@")
		return f, ok
	case name == "F" || name == "form":
		if _, val, ok := strings.Cut(v, "="); ok && (strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<")) {
			return strings.SplitN(val[1:], ";", 2)[0], true
		}
	case name == "H" || name == "header":
		if strings.HasPrefix(v, "@") {
			return v[1:], true
		}
	}
	return "", false
}

// wgetCmd: wget writes into the working directory unless -O FILE (or -P
// DIR); -o/-a write a log, -i/--post-file/--body-file read.
func wgetCmd(c *cmdCtx) {
	c.spec = &cmdSpec{
		lax:      true,
		shortArg: "OoaPiUtTwelADRQxyBIX",
		longArg: []string{"output-document", "output-file", "append-output", "directory-prefix", "input-file", "post-file",
			"body-file", "post-data", "body-data", "user-agent", "tries", "timeout", "wait", "execute", "level", "accept",
			"reject", "domains", "exclude-domains", "header", "user", "password", "http-user", "http-password",
			"load-cookies", "save-cookies", "limit-rate", "method", "referer", "base", "config", "ca-certificate",
			"certificate", "private-key", "restrict-file-names", "default-page", "quota", "bind-address", "cut-dirs"},
	}
	if !c.getopt() {
		return
	}
	out, hasOut := c.value("O", "output-document")
	for _, o := range c.opts {
		if !o.has {
			continue
		}
		switch o.name {
		case "o", "output-file", "a", "append-output", "save-cookies":
			c.add(o.val, Write)
		case "i", "input-file", "post-file", "body-file", "load-cookies", "config", "ca-certificate", "certificate", "private-key":
			c.add(o.val, Read)
		case "e", "execute":
			c.unknown("wget -e runs a wgetrc command")
		}
	}
	switch {
	case hasOut && !(out.unknown == "" && out.lit == "-"):
		c.add(out, Write)
	case hasOut:
	default:
		if d, ok := c.value("P", "directory-prefix"); ok {
			c.addT(d, Write, true)
		} else {
			c.addCwd(Write, true)
		}
	}
	c.cmd.ReadOnly = !c.writes()
}
