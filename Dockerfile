# simverify on Debian 12, two images from one file:
#   docker build -t simverify .                          the build image (default target):
#       the source tree built with the same ci/install-deps and package lists as the README,
#       .ci/run and .gitlab-ci.yml; it runs the shipped packs (e.g. the Kubernetes shards in
#       ci/k8s/): docker run --rm simverify simverify run requirements --out /tmp/out
#   docker build --target runtime -t simverify:runtime .  the slim runtime image: only the
#       Debian package ci/package made (simverify_*.deb) and what apt installs for it;
#       .gitlab-ci.yml publishes it to $CI_REGISTRY_IMAGE on version tags (docs/ci.md).
# testsuites/system/check_dockerfile.py keeps this file and ci/install-deps in agreement.
FROM debian:bookworm-slim AS build

WORKDIR /opt/simverify

# Dependencies first, from the installer and its package lists only: this layer is rebuilt
# when a package list changes, not on every source change.
COPY ci/install-deps ci/install-deps
COPY ci/packages/ ci/packages/
RUN ci/install-deps && rm -rf /var/lib/apt/lists/*

COPY . .
# No ccache inside the image: a one-off build would only leave its cache in the layer. The
# build context has no .git, so the revision for `simverify --version` comes as a build arg.
ARG SIMVERIFY_COMMIT=unknown
RUN CCACHE_DISABLE=1 ci/build default -DSIMVERIFY_COMMIT=$SIMVERIFY_COMMIT \
    && SIMVERIFY_SKIP_INSTALL=1 SIMVERIFY_SKIP_BUILD=1 ci/package

ENV PATH=/opt/simverify/build/default/bin:$PATH
CMD ["simverify", "run", "requirements", "--out", "/tmp/simverify-out"]

# The runtime image: the package alone, its Depends from Debian (apt resolves them).
FROM debian:bookworm-slim AS runtime
COPY --from=build /opt/simverify/build/package/ /tmp/simverify-package/
RUN apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends /tmp/simverify-package/simverify_*.deb \
    && rm -rf /var/lib/apt/lists/* /tmp/simverify-package \
    && simverify --version
WORKDIR /work
CMD ["simverify", "--help"]

# The default target stays the build image.
FROM build AS full
