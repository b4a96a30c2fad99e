// Two sessions side by side (the "Compare GPUs" view): what to call each one, and whether the
// two can be compared at all. Read by the chart builders (core/chart/chart_build.cpp), the CLI's
// `chart --compare` and the viewer's Metrics table, so all three name and refuse alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/message.h"
#include "common/result.h"
#include "core/session/session.h"

namespace sml::chart {

// A device name short enough for a legend: "NVIDIA H100 80GB HBM3" -> "H100",
// "NVIDIA GeForce RTX 4090" -> "RTX 4090". The vendor and product-line words and the memory
// size and type go; what is left names the GPU. Never empty ("unknown device").
std::string short_device_name(const std::string& name);

struct SessionLabels {
    std::string first, second;  // for the open session and the compared one
};

// Short, distinct names for two sessions: their devices ("H100", "RTX 4090"); their dates when
// both come from the same device ("2026-11-23", "2026-12-01"); date and time when those match
// too; "first" and "second" when nothing tells them apart.
SessionLabels compare_labels(const Session& first, const Session& second);

// The N both sessions have `dtype` points at, ascending.
std::vector<int64_t> shared_cols(const Session& first, const Session& second,
                                 const std::string& dtype);

// Ok when both sessions hold `dtype` points at one N at least. Otherwise an error that says
// which side lacks what (the compared session's dtypes, or both sides' N) and what to do.
Status check_comparable(const Session& first, const Session& second, const std::string& dtype);
// The same check as sentences (common/message.h), for the viewer to word in its language;
// nullopt when the two compare. check_comparable is its English.
std::optional<MessageError> compare_error(const Session& first, const Session& second,
                                          const std::string& dtype);

}  // namespace sml::chart
