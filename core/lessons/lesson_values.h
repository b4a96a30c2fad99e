// Facts a lesson reads from the GPU on screen instead of typing the H100's.
//
// The text writes {{device:sms}} where it would have typed "132": the viewer fills it from the
// open session's device record, so a live session on an RTX 4090 quotes the 4090's SM count and
// the recorded H100 session quotes the H100's. Without a session the H100 reference values
// (kernels/device_profiles.h) are shown. The keys:
//
//   {{device:name}}        the GPU's name
//   {{device:sms}}         SM count
//   {{device:l2}}          L2 size, "50 MB"
//   {{device:regs_per_sm}} 32-bit registers per SM
//   {{device:smem_optin}}  shared memory one block may use after opting in, "227 KB"
//   {{device:cc}}          compute capability, "9.0"
//   {{session:copy}}       the same run's device-to-device copy bandwidth, "3034 GB/s"
//   {{limit:<kernel>}}     the kernel's largest fp32 N on that GPU, e.g. {{limit:smem}}
#pragma once

#include <string>
#include <vector>

#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml {

// True for "device:sms", "session:copy", "limit:smem", ... (the text between {{ and }}).
bool is_lesson_value_ref(const std::string& ref);
// Every key, for error messages: "device:name, device:sms, ..., limit:<kernel>".
std::string lesson_value_ref_list();

// The limits the registry's ranges follow on the session's GPU: the device record's SM count,
// registers, opt-in shared memory, L2 and compute capability over the H100 reference values
// for what the record does not hold. Null session: the H100 reference.
DeviceLimits limits_of_session(const Session* session);

// The ref's text for `session` (null: the H100 reference values); "" for an unknown ref.
std::string lesson_value_text(const std::string& ref, const Session* session);

// Does the session's GPU have what the claim needs (LessonClaim::requires_feature)? A null
// session counts as the H100 the lessons were written on.
struct LessonClaim;
bool claim_applies(const LessonClaim& claim, const Session* session);

}  // namespace sml
