// C++ test program for PlannedRewriteTest: exceptions thrown through instrumented functions,
// virtual calls, std::string/vector/map. Deterministic.
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
};
struct Sq : Shape {
    double s;
    explicit Sq(double v) : s(v) {}
    double area() const override { return s * s; }
};
struct Circ : Shape {
    double r;
    explicit Circ(double v) : r(v) {}
    double area() const override { return 3.0 * r * r; }
};

__attribute__((noinline)) int thrower(int depth) {
    if (depth == 0) throw std::runtime_error("bottom reached");
    return thrower(depth - 1) + 1;
}

__attribute__((noinline)) int catcher(int depth) {
    try {
        return thrower(depth);
    } catch (const std::exception &e) {
        std::printf("caught '%s' at depth %d\n", e.what(), depth);
        return -depth;
    }
}

__attribute__((noinline)) std::string join(const std::vector<std::string> &v) {
    std::string out;
    for (const auto &s : v) out += s + ",";
    return out;
}

__attribute__((noinline)) double total_area(const std::vector<Shape *> &shapes) {
    double t = 0;
    for (auto *s : shapes) t += s->area();
    return t;
}

int main() {
    int c = 0;
    for (int i = 1; i < 6; i++) c += catcher(i * 3);
    std::map<std::string, int> m;
    for (int i = 0; i < 20; i++) m["k" + std::to_string(i % 7)] += i;
    std::vector<std::string> keys;
    for (auto &kv : m) keys.push_back(kv.first + "=" + std::to_string(kv.second));
    Sq a(2.0);
    Circ b(1.5);
    Sq d(0.5);
    std::vector<Shape *> shapes{&a, &b, &d};
    std::printf("c=%d keys=%s area=%.3f\n", c, join(keys).c_str(), total_area(shapes));
    return c & 0x7f;
}
