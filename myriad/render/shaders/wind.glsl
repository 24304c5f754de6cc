// The one wind field every plant reads (core/motion/plant_motion.hpp: wind_bend is its CPU twin, term for
// term): a steady lean along the wind plus gust fronts travelling along it at gust_speed, with ripples
// riding them. Every term depends on the position in the gusts' frame only (along the wind minus
// gust_speed * time, and across it), so the pattern moves as a whole and neighbours lean together.
// Needs core/motion/plant_motion_layout.h included first.

// The bend (tip displacement per metre of plant height, XZ) at world position `p` at `t` seconds.
vec2 wind_bend(WindParams w, vec2 p, float t) {
  vec2 d = w.direction;
  vec2 side = vec2(-d.y, d.x);
  float along = dot(p, d) - w.gust_speed * t;
  float across = dot(p, side);
  float k = 6.28318531 / w.gust_scale;
  float front = k * along + 1.5 * sin(0.37 * k * across);
  float g1 = 0.5 + 0.5 * sin(front);
  float g2 = 0.5 + 0.5 * sin(0.43 * k * along + 0.8 * sin(0.23 * k * across) + 1.9);
  float gust = g1 * g1 * (0.35 + 0.65 * g2);
  float ripple = sin(4.1 * k * along + 2.3 * sin(0.9 * k * across));
  float wobble = sin(3.3 * k * along + 0.85 * k * across);
  float flutter = w.flutter * (0.5 + gust);
  vec2 b = d * (w.strength + w.gust_strength * gust + flutter * ripple) + side * (flutter * wobble);
  float len = length(b);
  return b * (len > MYRIAD_MAX_WIND_BEND ? MYRIAD_MAX_WIND_BEND / len : 1.0);
}
