# simverify on Debian 12: the same ci/install-deps and package list as the README, .ci/run and
# .gitlab-ci.yml, then ci/build. The image runs the requirement packs (e.g. the Kubernetes
# shards in ci/k8s/):
#   docker build -t simverify .
#   docker run --rm simverify simverify run requirements --out /tmp/out
# testsuites/system/check_dockerfile.py keeps this file and ci/install-deps in agreement.
FROM debian:bookworm-slim

WORKDIR /opt/simverify

# Dependencies first, from the installer and its package lists only: this layer is rebuilt
# when a package list changes, not on every source change.
COPY ci/install-deps ci/install-deps
COPY ci/packages/ ci/packages/
RUN ci/install-deps && rm -rf /var/lib/apt/lists/*

COPY . .
# No ccache inside the image: a one-off build would only leave its cache in the layer.
RUN CCACHE_DISABLE=1 ci/build

ENV PATH=/opt/simverify/build/default/testsuites:$PATH
CMD ["simverify", "run", "requirements", "--out", "/tmp/simverify-out"]
