# Sourced by ./rankgrad and scripts/*: sets RANKGRAD_JAVA to a java binary of JDK 21 or newer and
# RANKGRAD_JAVA_MAJOR to its feature version.
# Looks at $JAVA_HOME, then java on PATH, then the usual install locations; the newest wins among
# the install locations. Prints one line saying what to install when none is found.

rankgrad_java_major() { # $1 = path of a java binary; prints its feature version, or nothing
  # The JDK's release file says it without starting a JVM (each start costs 0.1-0.3 s, and the
  # search below may look at several JDKs); a java without one (a wrapper, an old layout) is asked.
  local release v
  release="$(dirname "$(dirname "$(readlink -f "$1")")")/release"
  if [ -f "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' "$release" | head -n 1)
    [ -n "$v" ] && { echo "$v"; return; }
  fi
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

rankgrad_find_jdk() {
  local c v best="" bestv=0
  for c in ${JAVA_HOME:+"$JAVA_HOME/bin/java"} "$(command -v java 2>/dev/null)"; do
    [ -x "$c" ] || continue
    v=$(rankgrad_java_major "$c")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then RANKGRAD_JAVA=$c; RANKGRAD_JAVA_MAJOR=$v; return 0; fi
  done
  for c in /usr/lib/jvm/*/bin/java /usr/java/*/bin/java /opt/java/*/bin/java /opt/jdk*/bin/java \
           "$HOME"/.sdkman/candidates/java/*/bin/java "$HOME"/.jdks/*/bin/java \
           /Library/Java/JavaVirtualMachines/*/Contents/Home/bin/java; do
    [ -x "$c" ] || continue
    v=$(rankgrad_java_major "$c")
    if [ -n "$v" ] && [ "$v" -ge 21 ] && [ "$v" -gt "$bestv" ]; then best=$c; bestv=$v; fi
  done
  if [ -n "$best" ]; then RANKGRAD_JAVA=$best; RANKGRAD_JAVA_MAJOR=$bestv; return 0; fi
  echo "rankgrad: no JDK 21 or newer found (looked at JAVA_HOME, PATH, /usr/lib/jvm, /opt, ~/.sdkman, ~/.jdks); install one, e.g. 'apt-get install openjdk-21-jdk-headless' or Temurin 21+, or set JAVA_HOME to it" >&2
  return 1
}
