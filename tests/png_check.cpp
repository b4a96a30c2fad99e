// png_check FILE WIDTH HEIGHT MIN_COLOURS
//
// Checks that FILE is a PNG of exactly WIDTH x HEIGHT with at least MIN_COLOURS distinct RGB
// colours. A blank or failed render (one background colour, a few from a half-drawn frame)
// fails; a real screen of text, code and charts has thousands. Exit 0 when it passes, 1 with a
// one-line reason when not. Used by the viewer screenshot tests (tests/viewer.cmake).
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <unordered_set>

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: png_check FILE WIDTH HEIGHT MIN_COLOURS\n");
        return 2;
    }
    const int want_w = std::atoi(argv[2]), want_h = std::atoi(argv[3]);
    const size_t min_colours = static_cast<size_t>(std::atol(argv[4]));
    int w = 0, h = 0, channels = 0;
    unsigned char* px = stbi_load(argv[1], &w, &h, &channels, 3);
    if (!px) {
        std::fprintf(stderr, "FAIL %s: not a readable PNG (%s)\n", argv[1], stbi_failure_reason());
        return 1;
    }
    std::unordered_set<unsigned> colours;
    for (long i = 0; i < static_cast<long>(w) * h; ++i)
        colours.insert((px[3 * i] << 16) | (px[3 * i + 1] << 8) | px[3 * i + 2]);
    stbi_image_free(px);
    if (w != want_w || h != want_h) {
        std::fprintf(stderr, "FAIL %s: %dx%d, expected %dx%d\n", argv[1], w, h, want_w, want_h);
        return 1;
    }
    if (colours.size() < min_colours) {
        std::fprintf(stderr, "FAIL %s: only %zu distinct colours (need %zu): blank render?\n",
                     argv[1], colours.size(), min_colours);
        return 1;
    }
    std::printf("ok %s: %dx%d, %zu distinct colours\n", argv[1], w, h, colours.size());
    return 0;
}
