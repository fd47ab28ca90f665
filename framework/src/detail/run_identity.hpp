#pragma once
// Internal: which run this is, as results.json records it and the report and diff show it
// ("compared with <commit, date>").
#include <string>

namespace simverify::framework::detail {

// The commit being verified: $CI_COMMIT_SHA (GitLab CI) shortened to 12 characters, else
// `git rev-parse --short=12 HEAD` in the working directory; empty outside a checkout.
[[nodiscard]] std::string current_commit();

// The current time in UTC as ISO 8601 ("2026-11-26T03:12:00Z"); $SOURCE_DATE_EPOCH, when
// set, fixes it so that outputs can be reproduced byte for byte.
[[nodiscard]] std::string utc_timestamp();

}  // namespace simverify::framework::detail
