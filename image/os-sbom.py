#!/usr/bin/env python3
"""The image's operating-system SBOM (CycloneDX 1.6, JSON) on standard output.

    image/os-sbom.py ROOTFS JDK JAVA_RUNTIME DEB...

The base holds no dpkg database (its packages are unpacked, never installed, and only some of their files are
kept), so the components come from the .deb files mmdebstrap fetched: a package is listed when at least one of its
files is in ROOTFS, with the version, architecture, source package and SHA-256 of its .deb, and the files it
contributes. The jlink runtime (JAVA_RUNTIME, cut from the build's JDK: the JDK's `release` file names its build,
the runtime's its modules) is one more component: it comes from the JDK, not from Debian.
"""
import datetime
import hashlib
import json
import os
import subprocess
import sys
import urllib.parse
import uuid


def control(deb, *fields):
    out = subprocess.run(["dpkg-deb", "-f", deb, *fields], check=True, capture_output=True, text=True).stdout
    values = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        values[key.strip()] = value.strip()
    return values


def files(deb):
    out = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], check=True, capture_output=True).stdout
    listing = subprocess.run(["tar", "-t"], input=out, check=True, capture_output=True).stdout.decode()
    return [name[1:] if name.startswith(".") else name for name in listing.splitlines() if not name.endswith("/")]


def debian_component(deb, rootfs):
    present = [path for path in files(deb) if os.path.lexists(os.path.join(rootfs, path.lstrip("/")))]
    if not present:
        return None
    info = control(deb, "Package", "Version", "Architecture", "Source")
    name, version, arch = info["Package"], info["Version"], info["Architecture"]
    purl = "pkg:deb/debian/{}@{}?arch={}&distro=debian-12".format(name, urllib.parse.quote(version, safe=""), arch)
    with open(deb, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    properties = [{"name": "debian:file", "value": path} for path in sorted(present)]
    if info.get("Source"):
        properties.insert(0, {"name": "debian:source", "value": info["Source"].split(" ")[0]})
    return {"type": "library", "bom-ref": purl, "name": name, "version": version, "purl": purl,
            "hashes": [{"alg": "SHA-256", "content": digest}], "properties": properties}


def release_of(home):
    values = {}
    with open(os.path.join(home, "release")) as handle:
        for line in handle:
            key, _, value = line.strip().partition("=")
            values[key] = value.strip('"')
    return values


def java_component(jdk, runtime):
    release = {**release_of(jdk), "MODULES": release_of(runtime).get("MODULES", "")}
    version = release.get("JAVA_RUNTIME_VERSION", release.get("JAVA_VERSION", "unknown"))
    purl = "pkg:generic/{}/jlink-runtime@{}".format(release.get("IMPLEMENTOR", "unknown").replace(" ", "-").lower(),
                                                   urllib.parse.quote(version, safe=""))
    return {"type": "platform", "bom-ref": purl, "name": "jlink runtime", "version": version, "purl": purl,
            "supplier": {"name": release.get("IMPLEMENTOR", "unknown")},
            "properties": [{"name": "java:modules", "value": release.get("MODULES", "")}]}


def main():
    rootfs, jdk, runtime, debs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    components = [c for c in (debian_component(deb, rootfs) for deb in sorted(debs)) if c]
    components.append(java_component(jdk, runtime))
    bom = {"bomFormat": "CycloneDX", "specVersion": "1.6", "serialNumber": "urn:uuid:" + str(uuid.uuid4()),
           "version": 1,
           "metadata": {"timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                        "component": {"type": "container", "bom-ref": "image-os", "name": "folio-caching-sidecar base"},
                        "tools": {"components": [{"type": "application", "name": "image/os-sbom.py"}]}},
           "components": components}
    json.dump(bom, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
