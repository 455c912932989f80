#!/usr/bin/env bash
# Makes the smallest bundle that runs tornado-tasks' tests and the bench-tornado benchmark on a
# machine with no JDK, no Maven and no network (the NVIDIA GPU machine): a jlink'd JDK 25, the
# TornadoVM SDK (OpenCL backend) trimmed to what runs, the OpenCL ICD loader (libOpenCL.so.1),
# the module's jars with their test dependencies, JUnit's console launcher, and run-on-gpu.sh.
#
#   make-bundle.sh OUT_DIR [REPO]     -> OUT_DIR/rankgrad-gpu/ and OUT_DIR/rankgrad-gpu.tar.xz
#
# Inputs (arguments and environment):
#   TORNADOVM_HOME  the SDK made by build-tornadovm.sh (OpenCL backend), required
#   REPO            a rankgrad checkout to build (the second argument, else the REPO variable,
#                   else the current folder; a fresh clone keeps REVISION exact); built with
#                   -Ptornado, so TornadoVM's artifacts must be in ~/.m2 (build-tornadovm.sh)
#   JDK25           a JDK 25 with a linkable run-time or jmods (Temurin 25 was used; default
#                   JAVA_HOME_25, else JAVA_HOME)
set -euo pipefail
OUT=$(realpath -m "${1:?usage: make-bundle.sh OUT_DIR [REPO]}")
: "${TORNADOVM_HOME:?set TORNADOVM_HOME to the SDK made by build-tornadovm.sh}"
REPO=$(realpath "${2:-${REPO:-.}}")
JDK25=${JDK25:-${JAVA_HOME_25:-${JAVA_HOME:?set JDK25 (or JAVA_HOME_25, JAVA_HOME) to a JDK 25}}}
case "$("$JDK25/bin/java" -version 2>&1)" in
  *'version "25'*) ;;
  *) echo "$JDK25 is not a JDK 25 (set JDK25)" >&2; exit 1;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
B=$OUT/rankgrad-gpu
rm -rf "$B" "$OUT/rankgrad-gpu.tar.xz"; mkdir -p "$B"/{app,lib,icd}
t0=$(date +%s); step() { echo "[$(( $(date +%s) - t0 )) s] $*" >&2; }

step "1/5 JDK 25 run-time image (jlink)"
# java.base + the Vector API + what TornadoVM's and Graal's module descriptors require
# (jdk.internal.vm.ci = JVMCI, java.management, jdk.management, jdk.unsupported, java.logging)
# + java.xml/java.scripting? no: JUnit's console and JMH run without them (checked on PoCL).
MODULES=java.base,java.logging,java.management,jdk.management,jdk.unsupported,jdk.internal.vm.ci,jdk.incubator.vector${EXTRA_MODULES:+,$EXTRA_MODULES}
"$JDK25/bin/jlink" --add-modules "$MODULES" --strip-debug --no-man-pages --no-header-files \
  --output "$B/jdk" 2> >(grep -v 'incubator' >&2)

step "2/5 TornadoVM SDK (OpenCL backend), without what these runs never load"
S=$B/tornadovm
mkdir -p "$S/share/java"
cp -a "$TORNADOVM_HOME/etc" "$TORNADOVM_HOME/lib" "$S/"
cp -a "$TORNADOVM_HOME/tornado-argfile.template" "$S/" 2>/dev/null \
  || sed "s#$TORNADOVM_HOME#\${TORNADOVM_HOME}#g" "$TORNADOVM_HOME/tornado-argfile" > "$S/tornado-argfile.template"
mkdir -p "$S/share/java/tornado" "$S/share/java/graalJars"
# The module path is the folder share/java/tornado: keep the runtime's modules, drop the SDK's
# tests, benchmarks, examples, CUDA-library bindings and their libraries (JUnit 4, JMH 1.29,
# EJML, Lucene...); Graal's collections and word are served from graalJars (upgrade path).
for j in "$TORNADOVM_HOME"/share/java/tornado/*.jar; do
  case "$(basename "$j")" in
    tornado-api-*|tornado-runtime-*|tornado-annotation-*|tornado-drivers-common-*|tornado-drivers-opencl-5*) cp "$j" "$S/share/java/tornado/";;
    asm-*|commons-math3-*|snmp4j-*) cp "$j" "$S/share/java/tornado/";;  # required by tornado.annotation, tornado.runtime
  esac
done
# Graal: the compiler and what it requires (truffle-compiler, collections, word); not Truffle's
# API nor polyglot (14.6 MB), which nothing here loads.
for j in "$TORNADOVM_HOME"/share/java/graalJars/{compiler,truffle-compiler,collections,word}-*.jar; do
  cp "$j" "$S/share/java/graalJars/"
done

step "3/5 OpenCL ICD loader (ocl-icd) and NVIDIA's ICD file"
cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$B/lib/libOpenCL.so.1"
echo "libnvidia-opencl.so.1" > "$B/icd/nvidia.icd"

step "4/5 tornado-tasks, its tests and their dependencies"
# One reactor run: the project's own jars resolve to this build's target/ (nothing of rankgrad is
# installed in ~/.m2, and what is there may be another revision); copy-dependencies runs in every
# module of tornado-tasks' reactor, whose dependencies are all in tornado-tasks' test closure.
(cd "$REPO" && mvn -B -q -Ptornado -pl tornado-tasks -am package dependency:copy-dependencies -DskipTests \
   -DincludeScope=test -DoutputDirectory="$B/app/lib" \
   -DexcludeGroupIds=io.github.beehive-lab,org.junit.jupiter,org.junit.platform,org.opentest4j,org.apiguardian) >&2
# Check that the project's jars are this build's (same bytes as under target/).
for j in "$B"/app/lib/rankgrad-*.jar; do
  own=$(find "$REPO" -path "*/target/$(basename "$j")" | head -n 1)
  [ -n "$own" ] || { echo "no $(basename "$j") under $REPO/*/target" >&2; exit 1; }
  cmp -s "$own" "$j" || cp "$own" "$j"
done
cp "$REPO"/tornado-tasks/target/rankgrad-tornado-tasks-*.jar "$B/app/"
"$JDK25/bin/jar" --create --file "$B/app/rankgrad-tornado-tasks-tests.jar" -C "$REPO/tornado-tasks/target/test-classes" .
cp ~/.m2/repository/org/junit/platform/junit-platform-console-standalone/1.11.4/junit-platform-console-standalone-1.11.4.jar "$B/app/" 2>/dev/null \
  || (cd "$REPO" && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
        -Dartifact=org.junit.platform:junit-platform-console-standalone:1.11.4 -DoutputDirectory="$B/app" >&2)
# The test classes to select (JUnit's --select-package found none in the argfile JVM).
"$JDK25/bin/jar" --list --file "$B/app/rankgrad-tornado-tasks-tests.jar" | grep -E '^rankgrad/tornado/[A-Za-z0-9]+Test\.class$' \
  | sed 's#/#.#g; s#\.class$##' | sort > "$B/app/test-classes.txt"
cp "$HERE/run-on-gpu.sh" "$B/"
git -C "$REPO" rev-parse HEAD > "$B/REVISION"

step "5/5 archive"
tar -C "$OUT" -cf - rankgrad-gpu | xz -T0 -${XZ_LEVEL:-6} > "$OUT/rankgrad-gpu.tar.xz"
du -sh "$B" "$B"/* >&2
ls -l "$OUT/rankgrad-gpu.tar.xz" >&2
step done
