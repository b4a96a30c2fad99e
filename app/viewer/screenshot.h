// Saves the current OpenGL framebuffer as a PNG (docs and the Xvfb tests).
#pragma once

#include <string>

#include "common/result.h"

namespace sml::viewer {

// Reads width x height RGBA pixels of the back buffer (call after rendering, before the swap)
// and writes them top row first, as image viewers expect (GL's origin is bottom-left).
Status save_framebuffer_png(const std::string& path, int width, int height);

}  // namespace sml::viewer
