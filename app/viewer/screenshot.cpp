// Framebuffer to PNG. See screenshot.h.
#include "app/viewer/screenshot.h"

#include <GLFW/glfw3.h>  // includes the system GL header
#include <stb_image_write.h>

#include <string>
#include <vector>

#include "core/common/safe_file.h"

namespace sml::viewer {

Status save_framebuffer_png(const std::string& path, int width, int height) {
    if (width <= 0 || height <= 0)
        return Error{
            "framebuffer is empty (" + std::to_string(width) + "x" + std::to_string(height) + ")",
            "the window could not be shown; is the display working?"};
    std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    if (GLenum e = glGetError(); e != GL_NO_ERROR)
        return Error{"glReadPixels failed (GL error " + std::to_string(e) + ")", ""};
    for (size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;  // no see-through PNGs
    stbi_flip_vertically_on_write(1);
    // Encoded in memory, then written through a fresh side file and renamed into place
    // (core/common/safe_file.h): never half a PNG, never a followed symlink.
    std::string png;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                                   static_cast<size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &png, width, height, 4, pixels.data(), width * 4))
        return Error{"cannot encode the screenshot as PNG", ""};
    return write_file_atomic(path, png, "screenshot");
}

}  // namespace sml::viewer
