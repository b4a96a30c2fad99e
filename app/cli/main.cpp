// softmaxlab-cli: placeholder entry point, replaced by the CLI work.
#include <cstdio>
#include "kernels/registry.h"
int main() {
    for (const auto& k : sml::registry()) std::printf("%s\n", k.id);
    return 0;
}
