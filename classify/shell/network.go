package shell

import (
	"path"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/policy/glob"
)

// netTools are the programs that fetch or copy over the network, sorted by
// name: their URLs and host:path operands are not files.
var netTools = []cmdSpec{
	{name: "curl", role: roleCustom, custom: curlCmd},
	{name: "rsync", role: roleCustom, custom: rsyncCmd},
	{name: "scp", role: roleCopy, short: "346ABCOpqRrTv", shortArg: "cFiJlmoPSX", files: []optFile{{"F", Read}, {"i", Read}}, execOpts: []string{"S", "o"}},
	{name: "wget", role: roleCustom, custom: wgetCmd},
}

// rsyncShortFlags are rsync's short options that take no value (rsync(1),
// rsync 3.2.7 --help); each can be turned off as --no-LETTER.
const rsyncShortFlags = "vqcarRbudlLkKHpEAXogDtUNOJSnWxyzCF0shPi468V"

// rsyncOptions are rsync's options (rsync(1), rsync 3.2.7 --help). popt
// takes long options spelt out only ("--temp=DIR: unknown option"), and
// --no-OPTION turns any option off.
var rsyncOptions = sync.OnceValue(func() *cmdSpec {
	return &cmdSpec{
		role:      roleCopy,
		exactLong: true,
		short:     rsyncShortFlags,
		shortArg:  "BefTM@",
		long: append(noOptions(rsyncShortFlags), []string{
			"verbose", "quiet", "no-motd", "checksum", "archive", "recursive", "relative", "no-implied-dirs", "backup", "update",
			"inplace", "append", "append-verify", "dirs", "old-dirs", "old-d", "mkpath", "links", "copy-links",
			"copy-unsafe-links", "safe-links", "munge-links", "copy-dirlinks", "keep-dirlinks", "hard-links", "perms",
			"executability", "acls", "xattrs", "owner", "group", "devices", "copy-devices", "write-devices", "specials", "times",
			"atimes", "open-noatime", "crtimes", "omit-dir-times", "omit-link-times", "super", "fake-super", "sparse",
			"preallocate", "dry-run", "whole-file", "one-file-system", "existing", "ignore-existing", "remove-source-files",
			"del", "delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded",
			"ignore-missing-args", "delete-missing-args", "ignore-errors", "force", "partial", "delay-updates",
			"prune-empty-dirs", "numeric-ids", "ignore-times", "size-only", "fuzzy", "compress", "cvs-exclude", "from0",
			"old-args", "secluded-args", "protect-args", "trust-sender", "blocking-io", "stats", "8-bit-output",
			"human-readable", "progress", "itemize-changes", "list-only", "fsync", "ipv4", "ipv6", "version", "help", "daemon",
			"no-detach",
		}...),
		longArg: []string{
			"info", "debug", "stderr", "backup-dir", "suffix", "chmod", "checksum-choice", "cc", "block-size", "rsh",
			"rsync-path", "max-delete", "max-size", "min-size", "max-alloc", "partial-dir", "usermap", "groupmap", "chown",
			"timeout", "contimeout", "modify-window", "temp-dir", "compare-dest", "copy-dest", "link-dest", "compress-choice",
			"zc", "compress-level", "zl", "skip-compress", "filter", "exclude", "exclude-from", "include", "include-from",
			"files-from", "copy-as", "address", "port", "sockopts", "outbuf", "remote-option", "out-format", "log-file",
			"log-file-format", "password-file", "early-input", "bwlimit", "stop-after", "stop-at", "write-batch",
			"only-write-batch", "read-batch", "protocol", "iconv", "checksum-seed", "config", "dparam",
		},
		files: []optFile{{"exclude-from", Read}, {"include-from", Read}, {"password-file", Read}, {"early-input", Read},
			{"log-file", Write}, {"write-batch", Write}, {"only-write-batch", Write}, {"read-batch", Read}},
		recursive: []string{"del", "delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "delete-missing-args", "remove-source-files"},
		// -e (--rsh) and --rsync-path run a command, the second through the
		// shell, on this machine too for a local copy; -M (--remote-option)
		// passes an option to the other side, which is this machine for a
		// local copy; --daemon serves.
		execOpts:   []string{"e", "rsh", "rsync-path", "M", "remote-option", "daemon", "config", "dparam"},
		listOpts:   []string{"files-from"},
		followOpts: []string{"L", "copy-links", "copy-unsafe-links", "k", "copy-dirlinks", "K", "keep-dirlinks"},
	}
})

// noOptions returns --no-X for each short option letter X of rsync
// (rsync(1) "--no-OPTION"); --no-LONG is listed with each long option.
func noOptions(letters string) []string {
	var out []string
	for _, l := range letters {
		out = append(out, "no-"+string(l))
	}
	return out
}

// rsyncCmd: rsync copies like cp (roleCopy, cmdCtx.copyLike), from and to
// other hosts too; its options are rsyncOptions. --no-OPTION turns an
// option off, and is skipped; the directories of rsyncDirs are written or
// read; a filter rule "merge FILE" (". FILE") reads FILE.
func rsyncCmd(c *cmdCtx) {
	var args []sword
	for _, w := range c.args {
		if w.unknown == "" && strings.HasPrefix(w.lit, "--no-") && !containsStr(rsyncOptions().long, strings.TrimPrefix(w.lit, "--")) {
			if containsStr(rsyncOptions().long, strings.TrimPrefix(w.lit, "--no-")) || containsStr(rsyncOptions().longArg, strings.TrimPrefix(w.lit, "--no-")) {
				continue
			}
		}
		args = append(args, w)
	}
	c.args = args
	c.spec = rsyncOptions()
	c.run()
	if c.cmd.Unknown != "" {
		return
	}
	for _, o := range c.opts {
		if (o.name == "f" || o.name == "filter") && o.has {
			c.rsyncFilter(o.val)
		}
	}
}

// rsyncFilter adds the file a filter rule merges: "merge FILE", ". FILE",
// with modifiers ("merge,- FILE", ".- FILE"); a per-directory merge
// (dir-merge, ":") names files inside the transfer.
func (c *cmdCtx) rsyncFilter(rule sword) {
	if rule.unknown != "" {
		c.unknown("an rsync filter rule that is not static")
		return
	}
	r := strings.TrimSpace(rule.lit)
	kind, file, ok := strings.Cut(r, " ")
	if !ok {
		kind, file, ok = strings.Cut(r, "_")
	}
	kind, _, _ = strings.Cut(kind, ",")
	if ok && (kind == "merge" || strings.HasPrefix(kind, ".")) {
		c.add(literal(strings.TrimSpace(file)), Read)
	}
}

// curlOptions are curl's options (curl(1), curl 7.88 "curl --help all",
// and the later ones of the 8.x manual): long and longArg list every long
// option, so that an abbreviated one (curl takes a prefix of one option,
// "option --out: is ambiguous") is resolved as curl does; an option not
// listed takes no value.
var curlOptions = cmdSpec{
	lax:      true,
	short:    "aqfGgiIjklLMnNOpRsSvVxZ0123456#:",
	shortArg: "EKCbcdDFPHmoUQreXYytzTuAwx",
	long: []string{"anyauth", "append", "basic", "cert-status", "compressed", "compressed-ssh", "create-dirs", "crlf", "digest",
		"disable", "disable-eprt", "disable-epsv", "disallow-username-in-url", "doh-cert-status", "doh-insecure", "fail",
		"fail-early", "fail-with-body", "false-start", "form-escape", "ftp-create-dirs", "ftp-pasv", "ftp-pret",
		"ftp-skip-pasv-ip", "ftp-ssl-ccc", "ftp-ssl-control", "get", "globoff", "haproxy-protocol", "head", "http0.9",
		"http1.0", "http1.1", "http2", "http2-prior-knowledge", "http3", "http3-only", "ignore-content-length", "include",
		"insecure", "ipv4", "ipv6", "junk-session-cookies", "list-only", "location", "location-trusted",
		"mail-rcpt-allowfails", "manual", "metalink", "negotiate", "netrc", "netrc-optional", "next", "no-alpn",
		"no-buffer", "no-clobber", "no-keepalive", "no-npn", "no-progress-meter", "no-sessionid", "ntlm", "ntlm-wb",
		"parallel", "parallel-immediate", "path-as-is", "post301", "post302", "post303", "progress-bar", "proxy-anyauth",
		"proxy-basic", "proxy-digest", "proxy-insecure", "proxy-negotiate", "proxy-ntlm", "proxy-ssl-allow-beast",
		"proxy-ssl-auto-client-cert", "proxy-tlsv1", "proxytunnel", "raw", "remote-header-name", "remote-name",
		"remote-name-all", "remote-time", "remove-on-error", "retry-all-errors", "retry-connrefused", "sasl-ir",
		"show-error", "silent", "socks5-basic", "socks5-gssapi", "socks5-gssapi-nec", "ssl", "ssl-allow-beast",
		"ssl-auto-client-cert", "ssl-no-revoke", "ssl-reqd", "ssl-revoke-best-effort", "sslv2", "sslv3", "styled-output",
		"suppress-connect-headers", "tcp-fastopen", "tcp-nodelay", "tftp-no-options", "tlsv1", "tlsv1.0", "tlsv1.1",
		"tlsv1.2", "tlsv1.3", "tr-encoding", "trace-time", "use-ascii", "verbose", "version", "xattr", "help",
		// curl 8.x
		"ca-native", "proxy-ca-native", "dump-ca-embed", "proxy-http2", "mptcp", "trace-ids", "skip-existing", "out-null",
		"follow", "show-headers", "no-progress-meter", "ssl-sessions-only", "http2-prior-knowledge"},
	longArg: []string{"abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type", "ciphers",
		"config", "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-file-mode", "crlfile",
		"curves", "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation", "dns-interface",
		"dns-ipv4-addr", "dns-ipv6-addr", "dns-servers", "doh-url", "dump-header", "egd-file", "engine", "etag-compare",
		"etag-save", "expect100-timeout", "form", "form-string", "ftp-account", "ftp-alternative-to-user", "ftp-method",
		"ftp-port", "ftp-ssl-ccc-mode", "happy-eyeballs-timeout-ms", "header", "hostpubmd5", "hostpubsha256", "hsts",
		"interface", "json", "keepalive-time", "key", "key-type", "krb", "libcurl", "limit-rate", "local-port",
		"login-options", "mail-auth", "mail-from", "mail-rcpt", "max-filesize", "max-redirs", "max-time", "netrc-file",
		"noproxy", "oauth2-bearer", "output", "output-dir", "parallel-max", "pass", "pinnedpubkey", "preproxy", "proto",
		"proto-default", "proto-redir", "proxy", "proxy-cacert", "proxy-capath", "proxy-cert", "proxy-cert-type",
		"proxy-ciphers", "proxy-crlfile", "proxy-header", "proxy-key", "proxy-key-type", "proxy-pass",
		"proxy-pinnedpubkey", "proxy-service-name", "proxy-tls13-ciphers", "proxy-tlsauthtype", "proxy-tlspassword",
		"proxy-tlsuser", "proxy-user", "proxy1.0", "pubkey", "quote", "random-file", "range", "rate", "referer", "request",
		"request-target", "resolve", "retry", "retry-delay", "retry-max-time", "sasl-authzid", "service-name", "socks4",
		"socks4a", "socks5", "socks5-gssapi-service", "socks5-hostname", "speed-limit", "speed-time", "stderr",
		"telnet-option", "tftp-blksize", "time-cond", "tls-max", "tls13-ciphers", "tlsauthtype", "tlspassword", "tlsuser",
		"trace", "trace-ascii", "unix-socket", "upload-file", "url", "url-query", "user", "user-agent", "write-out",
		// curl 8.x
		"variable", "ssl-sessions", "ech", "knownhosts", "sigalgs", "upload-flags", "ip-tos", "vlan-priority",
		"trace-config", "ipfs-gateway", "haproxy-clientip", "parallel-max-host", "keepalive-cnt", "proxy-ssl-sessions"},
}

// curlFiles are curl's options whose value is a file it writes or reads;
// "-" is stdout or stdin. A Unix socket it connects to counts as written.
var curlFiles = []optFile{
	{"o", Write}, {"output", Write}, {"D", Write}, {"dump-header", Write},
	{"c", Write}, {"cookie-jar", Write}, {"trace", Write}, {"trace-ascii", Write},
	{"stderr", Write}, {"output-dir", Write}, {"libcurl", Write}, {"etag-save", Write},
	{"unix-socket", Write}, {"egd-file", Write},
	{"T", Read}, {"upload-file", Read},
	{"cert", Read}, {"E", Read}, {"proxy-cert", Read}, {"key", Read}, {"cacert", Read}, {"capath", Read},
	{"netrc-file", Read}, {"etag-compare", Read}, {"crlfile", Read}, {"random-file", Read},
	{"proxy-cacert", Read}, {"proxy-capath", Read}, {"proxy-crlfile", Read}, {"proxy-key", Read},
	{"pubkey", Read}, {"knownhosts", Read},
	// The HSTS and Alt-Svc caches and the TLS session file are read, then
	// rewritten.
	{"hsts", Write}, {"alt-svc", Write}, {"ssl-sessions", Write},
}

// curlData are curl's options whose value "@FILE" sends FILE's contents
// (curl(1) -d: "If you start the data with the letter @, the rest should
// be a file name"); --data-raw takes "@" literally. -H, --proxy-header,
// -w (--write-out) and --url (curl 8.13) read "@FILE" too.
var curlData = []string{"d", "data", "data-binary", "data-ascii", "data-urlencode", "json", "H", "header", "proxy-header", "w", "write-out", "url"}

// curlRemoteName are the options that save into a file named after the URL.
var curlRemoteName = []string{"O", "remote-name", "remote-name-all", "J"}

// curlCmd: URLs are not files; -o/--output, -D, -c, --trace write; -T,
// -d @file, --data-binary @file, -F name=@file, -w @file, the TLS files
// read; -O writes the URL's file name into the working directory or
// --output-dir, which -o's relative files go into too (curl(1)). -J lets
// the server name the file, and a URL glob ({a,b}, [1-3]) makes several: a
// write of the directory; "#N" in -o names files after a URL glob's
// matches, -K (--config) takes options from a file and --expand-OPTION
// builds a value from variables: unknown.
func curlCmd(c *cmdCtx) {
	for _, w := range c.args {
		if w.unknown == "" && strings.HasPrefix(w.lit, "--expand-") {
			// curl 8.3: --expand-OPTION builds OPTION's value from
			// --variable's, which read files and the environment.
			c.unknown("curl " + w.lit + " builds a value from variables")
			return
		}
	}
	c.spec = &curlOptions
	if !c.getopt() {
		return
	}
	if c.has("K", "config") {
		c.unknown("curl -K reads its options from a file safezone does not read")
		return
	}
	for _, o := range c.opts {
		if (o.name == "T" || o.name == "upload-file") && o.val.unknown == "" && strings.ContainsAny(o.val.lit, "{[") && !c.has("g", "globoff") {
			c.unknown("curl -T " + o.val.lit + ": a glob names several files to upload")
			return
		}
	}
	dir, hasDir := c.value("output-dir")
	remoteName := false
	for _, o := range c.opts {
		if containsStr(curlRemoteName, o.name) {
			remoteName = true
		}
		if !o.has {
			continue
		}
		if (o.name == "o" || o.name == "output") && hasDir && o.val.unknown == "" && !strings.HasPrefix(o.val.lit, "/") && o.val.lit != "-" {
			o.val = joinWord(dir, o.val)
		}
		if (o.name == "o" || o.name == "output") && curlGlobRef(o.val) && !c.has("g", "globoff") {
			c.unknown("curl -o " + o.val.text() + " names files after a URL glob's matches")
		}
		if (o.name == "w" || o.name == "write-out") && (o.val.unknown != "" || strings.Contains(o.val.lit, "%output{")) {
			c.unknown("curl -w %output{FILE} writes FILE")
		}
		c.curlValue(o)
	}
	if remoteName {
		c.curlRemoteNames(dir, hasDir)
	}
	c.curlFileURLs()
	c.cmd.ReadOnly = !c.writes()
}

// curlFileURLs adds the files the URLs of the file: scheme read
// (file:///etc/x, file://localhost/etc/x; curl(1) "FILE"), among the
// operands and the --url values; a file: URL that is not static, holds a
// URL glob or percent-escapes, or names another host, is unknown.
func (c *cmdCtx) curlFileURLs() {
	urls := append([]sword{}, c.ops...)
	for _, o := range c.opts {
		if o.has && o.name == "url" {
			urls = append(urls, o.val)
		}
	}
	for _, u := range urls {
		if u.unknown != "" {
			if strings.Contains(strings.ToLower(u.src), "file:") {
				c.unknown("curl: a file: URL that is not static")
			}
			continue
		}
		rest, ok := cutPrefixFold(u.lit, "file://")
		if !ok {
			continue
		}
		host, p, _ := strings.Cut(rest, "/")
		if (host != "" && !strings.EqualFold(host, "localhost")) || strings.ContainsAny(p, "%{}[]") {
			c.unknown("curl " + u.lit + ": a file: URL safezone does not read")
			continue
		}
		c.add(literal("/"+p), Read)
	}
}

// cutPrefixFold is strings.CutPrefix ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// curlGlobRef reports whether an output name refers to a URL glob's match
// ("#1").
func curlGlobRef(w sword) bool {
	t := w.text()
	for i := 0; i+1 < len(t); i++ {
		if t[i] == '#' && t[i+1] >= '0' && t[i+1] <= '9' {
			return true
		}
	}
	return false
}

// curlRemoteNames adds the files -O writes: each URL's last path element
// (without its query), "curl_response" when it has none, in dir or the
// working directory; -J, or a URL that is not static or holds a glob, a
// write of the directory.
func (c *cmdCtx) curlRemoteNames(dir sword, hasDir bool) {
	var urls []sword
	urls = append(urls, c.ops...)
	for _, o := range c.opts {
		if o.name == "url" && o.has {
			urls = append(urls, o.val)
		}
	}
	whole := c.has("J", "remote-header-name")
	for _, u := range urls {
		if u.unknown != "" || !c.has("g", "globoff") && strings.ContainsAny(u.lit, "{}[]") {
			whole = true
			continue
		}
		name, ok := urlFileName(u.lit, "curl_response", true)
		if !ok {
			whole = true
			continue
		}
		c.add(joinIf(dir, hasDir, literal(name)), Write)
	}
	if whole {
		if hasDir {
			c.add(dir, Write)
		} else {
			c.addCwd(Write, false)
		}
	}
}

// urlFileName returns the file name a downloader gives a URL: its last
// path element, without the fragment (and the query, when dropQuery), or
// empty (none there); false when the name is not one the analysis can
// tell (an escape, "." or "..").
func urlFileName(u, empty string, dropQuery bool) (string, bool) {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	u, _, _ = strings.Cut(u, "#")
	if dropQuery {
		u, _, _ = strings.Cut(u, "?")
	}
	slash := strings.IndexByte(u, '/')
	if slash < 0 {
		return empty, true
	}
	name := u[strings.LastIndexByte(u, '/')+1:]
	if q := strings.IndexByte(u[slash:], '?'); !dropQuery && q >= 0 && strings.LastIndexByte(u[:slash+q], '/') >= 0 {
		// A query after the last "/": the name is the element and its query.
		name = u[strings.LastIndexByte(u[:slash+q], '/')+1:]
	}
	switch {
	case name == "" || strings.HasPrefix(name, "?"):
		return empty + name, true
	case strings.Contains(name, "%") || name == "." || name == "..":
		return "", false
	}
	return name, true
}

// joinWord returns the static word dir/w.
func joinWord(dir, w sword) sword {
	if dir.unknown != "" {
		return dir
	}
	return literal(path.Join(dir.lit, w.lit))
}

// joinIf returns dir/w when hasDir, else w.
func joinIf(dir sword, hasDir bool, w sword) sword {
	if !hasDir {
		return w
	}
	return joinWord(dir, w)
}

// curlValue adds the file a curl option's value names, if any.
func (c *cmdCtx) curlValue(o opt) {
	for _, f := range curlFiles {
		if f.name == o.name {
			if !(o.val.unknown == "" && o.val.lit == "-") {
				c.add(o.val, f.access)
			}
			break
		}
	}
	if o.val.unknown != "" {
		if o.name == "d" || o.name == "data" || strings.ContainsAny(o.val.src, "@<") && curlMayRead(o.name) {
			c.unknown("a curl value that may name a file is not static: " + o.val.src)
		}
		return
	}
	if f, ok := curlDataFile(o.name, o.val.lit); ok && f != "-" && f != "" {
		c.add(sword{lit: f, pat: glob.Escape(f), src: f}, Read)
	}
}

// curlMayRead reports whether a value of the option name may name a file
// to read after "@" or "<" (curlDataFile).
func curlMayRead(name string) bool {
	return containsStr(curlData, name) || containsStr([]string{"F", "form", "url-query", "variable", "b", "cookie"}, name)
}

// curlDataFile returns the file a static data value reads (curl(1)): -d
// @FILE; --data-urlencode [NAME]@FILE; -F NAME=@FILE and NAME=<FILE, with
// ";type=..." after it; -H @FILE.
func curlDataFile(name, v string) (string, bool) {
	switch {
	case name == "data-urlencode":
		_, f, ok := strings.Cut(v, "@")
		return f, ok
	case containsStr(curlData, name) && strings.HasPrefix(v, "@"):
		return v[1:], true
	case name == "F" || name == "form":
		if _, val, ok := strings.Cut(v, "="); ok && (strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<")) {
			return strings.SplitN(val[1:], ";", 2)[0], true
		}
	case name == "E" || name == "cert" || name == "proxy-cert":
		// CERT[:PASSWORD]: the file may be what is before the first ":"
		// (curlFiles adds the whole value).
		if f, _, ok := strings.Cut(v, ":"); ok {
			return f, true
		}
	case name == "pinnedpubkey" || name == "proxy-pinnedpubkey":
		// A file, or "sha256//" hashes.
		if !strings.HasPrefix(v, "sha256//") {
			return v, true
		}
	case name == "url-query":
		// --url-query [NAME]@FILE and +[NAME]@FILE send FILE's contents.
		if _, f, ok := strings.Cut(strings.TrimPrefix(v, "+"), "@"); ok {
			return f, true
		}
	case name == "variable":
		// --variable NAME@FILE sets NAME to FILE's contents.
		if _, f, ok := strings.Cut(v, "@"); ok && !strings.Contains(v[:strings.Index(v, "@")], "=") {
			return f, true
		}
	case name == "b" || name == "cookie":
		// -b NAME=VALUE sends a cookie; a value without "=" is a cookie file.
		if !strings.Contains(v, "=") {
			return v, true
		}
	}
	return "", false
}

// wgetOptions are wget's options (wget(1), GNU Wget 1.21.3 --help, and the
// metalink and c-ares ones of its manual); getopt_long takes a long one
// abbreviated. -n takes the letters after it (-nc, -nv, -nd, -nH, -np).
var wgetOptions = cmdSpec{
	short:    "VhbdqvFcNS46xErkKmpHL",
	shortArg: "eoaiBtOTwQPUlARDIXn",
	long: []string{
		"version", "help", "background", "debug", "quiet", "verbose", "no-verbose", "force-html", "no-config",
		"retry-connrefused", "no-clobber", "no-netrc", "continue", "show-progress", "timestamping", "no-if-modified-since",
		"no-use-server-timestamps", "server-response", "spider", "random-wait", "no-proxy", "no-dns-cache", "ignore-case",
		"inet4-only", "inet6-only", "ask-password", "no-iri", "unlink", "xattr", "no-directories", "force-directories",
		"no-host-directories", "protocol-directories", "no-cache", "adjust-extension", "ignore-length", "save-headers",
		"no-http-keep-alive", "no-cookies", "keep-session-cookies", "content-disposition", "content-on-error",
		"auth-no-challenge", "https-only", "no-check-certificate", "no-hsts", "no-remove-listing", "no-glob",
		"no-passive-ftp", "preserve-permissions", "retr-symlinks", "ftps-implicit", "ftps-resume-ssl",
		"ftps-clear-data-connection", "ftps-fallback-to-ftp", "warc-cdx", "no-warc-compression", "no-warc-digests",
		"no-warc-keep-log", "recursive", "delete-after", "convert-links", "convert-file-only", "backup-converted", "mirror",
		"page-requisites", "strict-comments", "follow-ftp", "span-hosts", "relative", "trust-server-names", "no-parent",
		"retry-on-host-error", "metalink-over-http", "keep-badhash", "check-certificate", "passive-ftp", "http-keep-alive",
		"cookies", "hsts", "iri", "glob", "remove-listing", "use-server-timestamps", "if-modified-since", "dns-cache",
		"cache", "directories", "host-directories", "clobber", "parent",
	},
	longArg: []string{
		"execute", "output-file", "append-output", "report-speed", "input-file", "base", "config", "rejected-log", "tries",
		"retry-on-http-error", "output-document", "start-pos", "progress", "timeout", "dns-timeout", "connect-timeout",
		"read-timeout", "wait", "waitretry", "quota", "bind-address", "limit-rate", "restrict-file-names", "prefer-family",
		"user", "password", "use-askpass", "local-encoding", "remote-encoding", "directory-prefix", "cut-dirs", "http-user",
		"http-password", "default-page", "header", "compression", "proxy-user", "proxy-password", "referer", "user-agent",
		"load-cookies", "save-cookies", "post-data", "post-file", "method", "body-data", "body-file", "secure-protocol",
		"certificate", "certificate-type", "private-key", "private-key-type", "ca-certificate", "ca-directory", "crl-file",
		"pinnedpubkey", "ciphers", "ftp-user", "ftp-password", "warc-file", "warc-header", "warc-max-size", "warc-dedup",
		"warc-tempdir", "level", "backups", "accept", "reject", "accept-regex", "reject-regex", "regex-type", "domains",
		"exclude-domains", "follow-tags", "ignore-tags", "include-directories", "exclude-directories", "max-redirect",
		"hsts-file", "input-metalink", "metalink-index", "preferred-location", "bind-dns-address", "dns-servers", "egd-file",
		"random-file",
	},
	execOpts: []string{"use-askpass"},
}

// wgetFileOpts are wget's options whose value is a file it reads or writes
// (wget(1)): logs, cookies and the HSTS database written, inputs and TLS
// files read.
var wgetFileOpts = []optFile{
	{"o", Write}, {"output-file", Write}, {"a", Write}, {"append-output", Write}, {"save-cookies", Write},
	{"rejected-log", Write}, {"hsts-file", Write}, {"warc-tempdir", Write},
	{"i", Read}, {"input-file", Read}, {"post-file", Read}, {"body-file", Read}, {"load-cookies", Read},
	{"ca-certificate", Read}, {"ca-directory", Read}, {"certificate", Read}, {"private-key", Read}, {"crl-file", Read},
	{"warc-dedup", Read}, {"input-metalink", Read}, {"random-file", Read}, {"egd-file", Write},
}

// wgetCmd: wget writes what it downloads into -P DIR or the working
// directory (wget(1)): one file per URL, named after its last path
// element (index.html for a bare host or a trailing "/"), or FILE.1, ...
// when FILE exists (unless -nc, -N or -c); -O FILE writes FILE; -r, -m and
// -p (recursive), and -x (directories per host), write below the directory;
// names the server chooses (--content-disposition, --trust-server-names),
// names wget changes (-E, --default-page, --restrict-file-names) or URLs
// read from -i are a write of the directory. -o/-a write a log, -b writes
// wget-log when there is none, --warc-file=F writes F.warc.gz and its
// siblings, and temporary files wget* in --warc-tempdir or $TMPDIR; the files of wgetFileOpts are read or written. --use-askpass
// runs a command, -e a wgetrc command and --config reads wgetrc commands
// from a file (which may name a command or a file): unknown.
func wgetCmd(c *cmdCtx) {
	c.spec = &wgetOptions
	if !c.getopt() || c.refused(c.spec) {
		return
	}
	if !c.wgetFiles() {
		return
	}
	out, hasOut := c.value("O", "output-document")
	dir, hasDir := c.value("P", "directory-prefix")
	switch {
	case hasOut && !(out.unknown == "" && out.lit == "-"):
		c.add(out, Write)
	case hasOut:
	case c.has("r", "recursive", "m", "mirror", "p", "page-requisites", "x", "force-directories"):
		if hasDir {
			c.addT(dir, Write, true)
		} else {
			c.addCwd(Write, true)
		}
	default:
		c.wgetNames(dir, hasDir)
	}
	c.cmd.ReadOnly = !c.writes()
}

// wgetN reports whether wget's -n was given the letter l (-nc: "c").
func (c *cmdCtx) wgetN(l string) bool {
	for _, o := range c.opts {
		if o.name == "n" && o.has && o.val.unknown == "" && o.val.lit == l {
			return true
		}
	}
	return false
}

// wgetFiles adds the files of wget's options (wgetFileOpts, -b's log,
// --warc-file's archives); false, the command unknown, for -e and --config,
// which run wgetrc commands.
func (c *cmdCtx) wgetFiles() bool {
	if c.has("e", "execute") {
		c.unknown("wget -e runs a wgetrc command")
		return false
	}
	if c.has("config") {
		if v, ok := c.value("config"); ok {
			c.add(v, Read)
		}
		c.unknown("wget --config reads wgetrc commands (files, commands) from a file safezone does not read")
		return false
	}
	for _, f := range wgetFileOpts {
		for _, o := range c.opts {
			if o.name == f.name && o.has && !(o.val.unknown == "" && o.val.lit == "-") {
				c.add(o.val, f.access)
			}
		}
	}
	if v, ok := c.value("pinnedpubkey"); ok && !(v.unknown == "" && strings.HasPrefix(v.lit, "sha256//")) {
		c.add(v, Read)
	}
	if c.has("b", "background") && !c.has("o", "output-file", "a", "append-output") {
		c.add(literal("wget-log"), Write)
		c.addPattern(literal("wget-log"), ".*")
	}
	if v, ok := c.value("warc-file"); ok {
		c.addPattern(v, "*")
		// The WARC writer's temporary files go to --warc-tempdir, else
		// $TMPDIR or /tmp.
		dir, ok := c.value("warc-tempdir")
		if !ok {
			dir = literal("/tmp")
			if c.a.env.TmpDir != "" {
				dir = literal(c.a.env.TmpDir)
			}
		}
		c.addPattern(dir, "/wget*")
	}
	return true
}

// addPattern adds the write of the files whose names are w's followed by
// the glob suffix (FILE.1, FILE.warc.gz), as a pattern target.
func (c *cmdCtx) addPattern(w sword, suffix string) {
	ts, why := c.a.targets(w, Write)
	if why != "" {
		c.unknown(why)
		return
	}
	for _, t := range ts {
		t.Path, t.Given, t.Pattern = glob.Escape(path.Clean(t.Path))+suffix, t.Given+suffix, true
		c.cmd.Targets = append(c.cmd.Targets, t)
	}
}

// wgetNames adds the file each URL operand is saved as, in dir or the
// working directory, or a write of the directory where the names are not
// known.
func (c *cmdCtx) wgetNames(dir sword, hasDir bool) {
	whole := c.has("i", "input-file", "content-disposition", "trust-server-names", "E", "adjust-extension", "default-page",
		"restrict-file-names", "input-metalink", "backups")
	numbered := !c.has("no-clobber", "N", "timestamping", "c", "continue") && !c.wgetN("c")
	for _, u := range c.ops {
		if whole {
			break
		}
		name, ok := "", false
		if u.unknown == "" {
			name, ok = urlFileName(u.lit, "index.html", false)
		}
		if !ok {
			whole = true
			continue
		}
		f := joinIf(dir, hasDir, literal(name))
		c.add(f, Write)
		if numbered && f.unknown == "" {
			// An existing FILE makes wget save FILE.1, FILE.2, ...
			c.addPattern(f, ".[0-9]*")
		}
	}
	if whole {
		if hasDir {
			c.add(dir, Write)
		} else {
			c.addCwd(Write, false)
		}
	}
}
